package glance_test

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	"github.com/c5c3/openstack-operators/e2e/poll"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// imageServer serves data at /image.raw on a loopback port: the web the
// web-download import method fetches from.
func imageServer(t *testing.T, data []byte) (*httptest.Server, int) {
	t.Helper()
	return fileServer(t, map[string][]byte{"/image.raw": data})
}

// fileServer serves each file at its path on a loopback port, with its
// Content-Length (glance's web-download reads it, as a mirror sends it).
func fileServer(t *testing.T, files map[string][]byte) (*httptest.Server, int) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", strconv.Itoa(len(data)))
		_, _ = w.Write(data)
	}))
	t.Cleanup(srv.Close)
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	poll.Must(t, err)
	p, err := strconv.Atoi(port)
	poll.Must(t, err)
	return srv, p
}

// webDownload asks Glance to import uri into image id and returns the
// answer's status code and body.
func (c imageAPI) webDownload(id, uri string) (int, string) {
	c.T.Helper()
	body, _ := json.Marshal(map[string]any{"method": map[string]string{"name": "web-download", "uri": uri}})
	resp, out := c.Do(http.MethodPost, "v2/images/"+id+"/import", bytes.NewReader(body), map[string]string{"Content-Type": "application/json"})
	return resp.StatusCode, string(out)
}

// The CR's importFiltering reaches glance-api: with http, 127.0.0.1 and the
// image server's port allowed, web-download imports the server's bytes into
// the default store; a port or host the CR does not allow is refused when
// the import is asked for. (The defaults refusing the same server is part
// of TestImagesLandInTheBackendsBuckets.)
func TestWebDownloadFollowsImportFiltering(t *testing.T) {
	data := make([]byte, 1<<20+3)
	_, _ = rand.Read(data)
	srv, port := imageServer(t, data)
	s := newSite(t, "import", env.Releases[0], func(g *glancev1.Glance) {
		g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{
			AllowedSchemes: []string{"http"}, AllowedHosts: []string{"127.0.0.1"}, AllowedPorts: []int32{int32(port)},
		}
	})
	a := s.upToReady()
	token, err := env.Keystone.AdminToken()
	poll.Must(t, err)
	api := imageAPI{harness.Client{T: t, URL: a.URL, Token: token}}

	for name, uri := range map[string]string{
		"port not allowed": fmt.Sprintf("http://127.0.0.1:%d/image.raw", port+1),
		"host not allowed": fmt.Sprintf("http://localhost:%d/image.raw", port),
	} {
		id := api.create("refused")
		if code, out := api.webDownload(id, uri); code != http.StatusBadRequest || !strings.Contains(out, "filtering") {
			t.Errorf("%s: import of %s answered %d, want 400 for the filtering: %s", name, uri, code, out)
		}
	}

	id := api.create("imported")
	if code, out := api.webDownload(id, srv.URL+"/image.raw"); code != http.StatusAccepted {
		t.Fatalf("import of %s answered %d, want 202: %s", srv.URL, code, out)
	}
	poll.Until(t, harness.WaitLong, func() error {
		img := api.image(id)
		if img["status"] != "active" {
			return fmt.Errorf("image %s is %v (failed imports: %v)", id, img["status"], img["os_glance_failed_import"])
		}
		return nil
	})
	if got := api.Expect(http.StatusOK, http.MethodGet, "v2/images/"+id+"/file", nil, nil); !bytes.Equal(got, data) {
		t.Errorf("imported image holds %d bytes, the server served %d", len(got), len(data))
	}
	if img := api.image(id); img["stores"] != fast {
		t.Errorf("imported into %v, want the default store %s", img["stores"], fast)
	}
}
