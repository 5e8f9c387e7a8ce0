package glance_test

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	"github.com/c5c3/openstack-operators/e2e/poll"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// imageAPI is a client of the Image API v2 with a Keystone token.
type imageAPI struct{ harness.Client }

// create registers a raw image and returns its ID.
func (c imageAPI) create(name string) string {
	c.T.Helper()
	body, _ := json.Marshal(map[string]string{"name": name, "disk_format": "raw", "container_format": "bare"})
	var img struct{ ID string }
	poll.Must(c.T, json.Unmarshal(c.Expect(http.StatusCreated, http.MethodPost, "v2/images", bytes.NewReader(body),
		map[string]string{"Content-Type": "application/json"}), &img))
	return img.ID
}

// upload stores data as the image's file, in store when not empty.
func (c imageAPI) upload(id string, data []byte, store string) {
	c.T.Helper()
	h := map[string]string{"Content-Type": "application/octet-stream"}
	if store != "" {
		h["X-Image-Meta-Store"] = store
	}
	c.Expect(http.StatusNoContent, http.MethodPut, "v2/images/"+id+"/file", bytes.NewReader(data), h)
}

// image reads the image's record.
func (c imageAPI) image(id string) map[string]any {
	c.T.Helper()
	var img map[string]any
	poll.Must(c.T, json.Unmarshal(c.Expect(http.StatusOK, http.MethodGet, "v2/images/"+id, nil, nil), &img))
	return img
}

// A Glance with two S3 GlanceBackends reaches Ready on the real db-sync and
// the real glance-api started from what the operator rendered, in both
// launch modes this run covers (env.Releases): eventlet (2025.2) and uWSGI
// (2026.1). With a token, an image's bytes land in the default
// backend's bucket, another's in the second backend's bucket by store
// header, both download byte-identical, and deleting them removes the
// objects. Without a token /healthcheck answers and the API refuses.
func TestImagesLandInTheBackendsBuckets(t *testing.T) {
	for _, release := range env.Releases {
		t.Run(release, func(t *testing.T) { imagesLand(t, release) })
	}
}

func imagesLand(t *testing.T, release string) {
	s := newSite(t, "images-"+strings.ReplaceAll(release, ".", "-"), release, nil)
	a := s.upToReady()
	for _, b := range []string{fast, archive} {
		s.waitBackend(b, glancev1.ConditionConfigProjected, metav1.ConditionTrue)
	}

	anon := imageAPI{harness.Client{T: t, URL: a.URL}}
	anon.Expect(http.StatusOK, http.MethodGet, "healthcheck", nil, nil)
	anon.Expect(http.StatusUnauthorized, http.MethodGet, "v2/images", nil, nil)

	token, err := env.Keystone.AdminToken()
	poll.Must(t, err)
	api := imageAPI{harness.Client{T: t, URL: a.URL, Token: token}}
	var stores struct {
		Stores []struct {
			ID string `json:"id"`
			// Default is "true" on the default store (a string, as
			// Glance's info API writes it).
			Default any `json:"default"`
		} `json:"stores"`
	}
	poll.Must(t, json.Unmarshal(api.Expect(http.StatusOK, http.MethodGet, "v2/info/stores", nil, nil), &stores))
	if len(stores.Stores) != 2 || stores.Stores[0].ID == stores.Stores[1].ID {
		t.Fatalf("stores = %+v, want fast and archive", stores.Stores)
	}
	for _, st := range stores.Stores {
		if isDefault := fmt.Sprint(st.Default) == "true"; isDefault != (st.ID == fast) {
			t.Errorf("store %s default = %v: %+v", st.ID, st.Default, stores)
		}
	}

	// The default import filtering refuses web-download from a loopback
	// http server.
	_, port := imageServer(t, []byte("never fetched"))
	uri := fmt.Sprintf("http://127.0.0.1:%d/image.raw", port)
	if code, out := api.webDownload(api.create("refused"), uri); code != http.StatusBadRequest || !strings.Contains(out, "filtering") {
		t.Errorf("web-download from %s under the default filtering answered %d, want 400 for the filtering: %s", uri, code, out)
	}

	for _, tc := range []struct{ store, header string }{{fast, ""}, {archive, archive}} {
		data := make([]byte, 3<<20+17)
		_, _ = rand.Read(data)
		id := api.create("cirros-" + tc.store)
		api.upload(id, data, tc.header)
		img := api.image(id)
		if img["status"] != "active" || img["stores"] != tc.store {
			t.Errorf("image in %s: status %v, stores %v", tc.store, img["status"], img["stores"])
		}
		keys, err := env.S3.Keys(t.Context(), s.buckets[tc.store])
		poll.Must(t, err)
		if !slices.Contains(keys, id) {
			t.Errorf("bucket %s holds %v, not the image %s", s.buckets[tc.store], keys, id)
		}
		stored, err := env.S3.Get(t.Context(), s.buckets[tc.store], id)
		poll.Must(t, err)
		got := api.Expect(http.StatusOK, http.MethodGet, "v2/images/"+id+"/file", nil, nil)
		if sha256.Sum256(got) != sha256.Sum256(data) || sha256.Sum256(stored) != sha256.Sum256(data) {
			t.Errorf("store %s: downloaded %d bytes, bucket holds %d, uploaded %d: not identical", tc.store, len(got), len(stored), len(data))
		}
		api.Expect(http.StatusNoContent, http.MethodDelete, "v2/images/"+id, nil, nil)
		keys, err = env.S3.Keys(t.Context(), s.buckets[tc.store])
		poll.Must(t, err)
		if slices.Contains(keys, id) {
			t.Errorf("bucket %s still holds %s after the image was deleted", s.buckets[tc.store], id)
		}
	}
}
