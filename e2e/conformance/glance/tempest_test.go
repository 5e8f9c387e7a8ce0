package glance_test

import (
	"bufio"
	"crypto/rand"
	"net"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/tempest"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// imageHost is the name web-download fetches Tempest's image from: an
// internal mirror, resolved to the test's HTTP server.
const imageHost = "images.tempest.test"

// The skips Tempest's image tests may report here, each with the reason it
// is not a gap of the deployment. Any other skip fails the test.
var imageSkips = []tempest.Skip{
	{Reason: regexp.MustCompile(`^Glance API v1 not supported$`),
		Why: "the Image API v1 was removed from Glance (Rocky); the operator serves v2"},
	{Reason: regexp.MustCompile(`glance-direct import method`),
		Why: "the operator offers web-download and copy-image (`enabled_import_methods`); glance-direct needs a staging area every API pod shares"},
	{Reason: regexp.MustCompile(`glance-download import method`),
		Why: "glance-download imports an image from the Glance of another region; this deployment has one region and the operator does not offer the method"},
	{Reason: regexp.MustCompile(`show_multiple_locations is not available`),
		Why: "the operator leaves `show_multiple_locations` off: it exposes the backends' locations to users (deprecated upstream)"},
	{Reason: regexp.MustCompile(`not configured with glance caching`),
		Why: "this deployment has no image cache (`spec.imageCache` unset)"},
	{Reason: regexp.MustCompile(`^enforce_scope is not enabled for glance, skipping RBAC tests$`),
		Why: "the Glance plugin's tests are of the secure-RBAC policies (token scope enforced); the release's policy defaults, which the operator keeps, do not enforce scope"},
}

// imageExclusions are image tests that contradict the service they run
// against.
var imageExclusions = []tempest.Exclusion{
	{Test: `test_image_web_download_import_with_bad_url`,
		Why: "expects glance to accept a web-download from a host that does not resolve and fail the import later; the glance under test resolves the host when the import is requested and refuses it at once with 400 (Debian's 25.1.0-2+deb12u5 added the check against server-side request forgery)"},
}

// TestTempest runs Tempest's image API tests (tempest.api.image) and the
// Glance plugin's tests against a Glance with two S3 backends, started
// from exactly what the operator rendered, in every launch mode this run
// covers (env.Releases), with the Tempest of the Debian release the
// services come from. tempest.conf follows the rendered config: import on
// (enabled_import_methods), web-download allowed to an internal mirror by
// spec.importFiltering (the mirror is this test's HTTP server), the image
// cache as configured. No test may fail; every skip needs a reason listed
// in imageSkips.
func TestTempest(t *testing.T) {
	mirror := imageMirror(t)
	for _, release := range env.Releases {
		t.Run(release, func(t *testing.T) {
			s := newSite(t, "tempest-"+strings.ReplaceAll(release, ".", ""), release, func(g *glancev1.Glance) {
				g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{AllowedSchemes: []string{"http"},
					AllowedHosts: []string{imageHost, "does-not.exist"}, AllowedPorts: []int32{}}
			})
			s.syncDatabase()
			l := s.launch()
			l.Hosts = append(l.Hosts, imageHost)
			d := env.Deployment(t, s.key(), "")
			a := env.StartAPI(t, d, "glance-api", l)
			env.Ready(t, s.glance(), s.key(), a)
			poll.Must(t, env.Keystone.Endpoint("image", "glance", strings.TrimSuffix(a.URL, "/")))

			conf := renderedConf(t, s.ns, harness.ConfigMapOf(d))
			cloud := env.TempestCloud()
			cloud.Image = &tempest.Image{
				Import:    iniValue(conf, "DEFAULT", "enabled_import_methods") != "[]",
				Cache:     iniValue(conf, "DEFAULT", "image_cache_dir") != "",
				HTTPImage: "http://" + imageHost + ":" + strconv.Itoa(int(mirror.port)) + "/image.raw",
			}
			env.Tempest(t, cloud, `^(tempest\.api\.image|glance_tempest_plugin)`, imageSkips, imageExclusions...)
		})
	}
}

// mirror is an HTTP server on loopback serving one image.
type mirror struct{ port int32 }

func imageMirror(t *testing.T) mirror {
	body := make([]byte, 64<<10)
	_, _ = rand.Read(body)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/image.raw" {
			http.NotFound(w, r)
			return
		}
		// glance's web-download reads Content-Length (a mirror sends it).
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	_, port, err := net.SplitHostPort(srv.Listener.Addr().String())
	poll.Must(t, err)
	n, err := strconv.Atoi(port)
	poll.Must(t, err)
	return mirror{port: int32(n)}
}

// renderedConf is glance-api.conf of the config ConfigMap name.
func renderedConf(t *testing.T, ns, name string) string {
	var cm corev1.ConfigMap
	poll.Must(t, env.K8s.Get(t.Context(), client.ObjectKey{Namespace: ns, Name: name}, &cm))
	return cm.Data["glance-api.conf"]
}

// iniValue is the value of key in section of an INI text ("" when absent).
func iniValue(text, section, key string) string {
	in := false
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			in = line == "["+section+"]"
			continue
		}
		if k, v, ok := strings.Cut(line, "="); in && ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
