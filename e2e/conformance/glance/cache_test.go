package glance_test

import (
	"bytes"
	"crypto/rand"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	"github.com/c5c3/openstack-operators/e2e/poll"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// cacheDir is the image cache's mount path in both containers.
const cacheDir = "/var/lib/glance/image-cache"

// With imageCache, the real glance-api caches an image on its first
// download and serves the second from the cache (the object is gone from
// the bucket by then); the rendered cache-maintenance sidecar, run as the
// pod's second container on the same volume with the real
// glance-cache-pruner and glance-cache-cleaner, prunes the cache once it is
// over the bound (80% of sizeLimit) and keeps running.
func TestImageCacheServesAndThePrunerBoundsIt(t *testing.T) {
	limit := resource.MustParse("2Mi")
	s := newSite(t, "cache", env.Releases[0], func(g *glancev1.Glance) {
		g.Spec.ImageCache = &glancev1.ImageCacheSpec{SizeLimit: &limit}
	})
	a := s.upToReady()
	token, err := env.Keystone.AdminToken()
	poll.Must(t, err)
	api := imageAPI{harness.Client{T: t, URL: a.URL, Token: token}}
	data := make([]byte, 3<<20)
	_, _ = rand.Read(data)
	id := api.create("cached")
	api.upload(id, data, "")

	// The API container's view of the cache volume, on this machine.
	volume := filepath.Join(a.Container.Dir, "volumes", "image-cache")
	cached := filepath.Join(volume, id)
	if got := api.Expect(http.StatusOK, http.MethodGet, "v2/images/"+id+"/file", nil, nil); !bytes.Equal(got, data) {
		t.Fatalf("first download: %d bytes, uploaded %d", len(got), len(data))
	}
	poll.Until(t, harness.WaitLong, func() error {
		if st, err := os.Stat(cached); err != nil || st.Size() != int64(len(data)) {
			return fmt.Errorf("image %s not (fully) in the cache %s: %w", id, volume, err)
		}
		return nil
	})
	poll.Must(t, env.S3.Delete(t.Context(), s.buckets[fast], id))
	if got := api.Expect(http.StatusOK, http.MethodGet, "v2/images/"+id+"/file", nil, nil); !bytes.Equal(got, data) {
		t.Fatalf("second download, object gone from the bucket: %d bytes, want the cached %d", len(got), len(data))
	}

	if _, err := os.Stat(cached); err != nil {
		t.Fatalf("the cache lost %s before the sidecar started: %v", id, err)
	}
	d := env.Deployment(t, s.key(), "")
	sidecar := env.PrepareDeployment(t, d, "cache-maintenance")
	defer sidecar.Release()
	poll.Must(t, sidecar.Share(volume, cacheDir))
	p, err := sidecar.Start()
	poll.Must(t, err)
	defer func() { _ = p.Stop(5 * time.Second) }()
	poll.Until(t, harness.WaitLong, func() error {
		if p.Exited() {
			t.Fatalf("cache-maintenance exited (code %d):\n%s", p.ExitCode(), p.Log())
		}
		if _, err := os.Stat(cached); err == nil {
			return fmt.Errorf("image %s still cached after the sidecar started:\n%s", id, p.Log())
		}
		return nil
	})
	if p.Exited() {
		t.Errorf("cache-maintenance exited after pruning:\n%s", p.Log())
	}
}
