package glance_test

import (
	"bufio"
	"crypto/rand"
	"encoding/binary"
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
		Why: "the Glance plugin's tests are of the secure-RBAC policies (token scope enforced); the release's policy defaults (oslo.policy 4, Zed), which the operator keeps, do not enforce scope"},
	{Reason: regexp.MustCompile(`http store is disabled`),
		Why: "the tests read image data through the read-only http store; the operator configures stores from GlanceBackends (S3 here), and offers no http store"},
	{Reason: regexp.MustCompile(`^do_secure_hash is enabled$`),
		Why: "the test needs glance's do_secure_hash off; the operator keeps glance's default (on: glance hashes the data of an added location)"},
	{Reason: regexp.MustCompile(`^StoreWeightTest skipped as store weight is not configured$`),
		Why: "the operator sets no store weights (per-store `weight`); the default store takes new images"},
	{Reason: regexp.MustCompile(`^Image format enforcement prevents testing with bogus image data$`),
		Why: "glance (2024.1 and later) checks uploaded data against disk_format, which this test's fake data would fail; Tempest skips it when the check is on, as it is by default"},
	{Reason: regexp.MustCompile(`^Nova is not available$`),
		Why: "the tests need the Compute service; this deployment has no Nova"},
	{Reason: regexp.MustCompile(`^Skipped until bug: https://launchpad.net/bugs/2030527 is resolved\.$`),
		Why: "skipped by Tempest itself until the upstream bug 2030527 (image tasks API) is fixed"},
}

// imageExclusions are image tests that contradict the service they run
// against, per Debian suite ("" the machine's).
var imageExclusions = map[string][]tempest.Exclusion{
	// Tempest 47 (sid) accepts the 400 as well.
	"": {{Test: `test_image_web_download_import_with_bad_url`,
		Why: "Tempest 33 expects glance to accept a web-download from a host that does not resolve and fail the import later; the glance under test resolves the host when the import is requested and refuses it at once with 400 (Debian's 25.1.0-2+deb12u5 added the check against server-side request forgery; Tempest 47 accepts either)"}},
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
			cloud := env.TempestCloud(t)
			methods := iniValue(conf, "DEFAULT", "enabled_import_methods")
			cloud.Image = &tempest.Image{
				Import:         methods != "" && methods != "[]",
				Cache:          iniValue(conf, "DEFAULT", "image_cache_dir") != "",
				HTTPImage:      "http://" + imageHost + ":" + strconv.Itoa(int(mirror)) + "/image.raw",
				HTTPQcow2Image: "http://" + imageHost + ":" + strconv.Itoa(int(mirror)) + "/image.qcow2",
			}
			env.Tempest(t, cloud, `^(tempest\.api\.image|glance_tempest_plugin)`, imageSkips, imageExclusions[env.Debian]...)
		})
	}
}

// imageMirror serves the images Tempest's web-download tests fetch: any
// bytes (/image.raw) and an empty qcow2 image (/image.qcow2); it returns
// the port.
func imageMirror(t *testing.T) int32 {
	raw := make([]byte, 64<<10)
	_, _ = rand.Read(raw)
	_, port := fileServer(t, map[string][]byte{"/image.raw": raw, "/image.qcow2": emptyQcow2(1 << 20)})
	return int32(port)
}

// emptyQcow2 is a valid qcow2 (version 3) image of size bytes with no data:
// 64 KiB clusters; cluster 0 the header, 1 the refcount table, 2 its one
// refcount block (clusters 0-3 in use), 3 the L1 table (one empty entry).
// What qemu-img create -f qcow2 writes, without needing qemu-img.
func emptyQcow2(size uint64) []byte {
	const cluster = 1 << 16
	img := make([]byte, 4*cluster)
	be := binary.BigEndian
	copy(img, "QFI\xfb")
	be.PutUint32(img[4:], 3)               // version
	be.PutUint32(img[20:], 16)             // cluster_bits
	be.PutUint64(img[24:], size)           // virtual size
	be.PutUint32(img[36:], 1)              // l1_size
	be.PutUint64(img[40:], 3*cluster)      // l1_table_offset
	be.PutUint64(img[48:], 1*cluster)      // refcount_table_offset
	be.PutUint32(img[56:], 1)              // refcount_table_clusters
	be.PutUint32(img[96:], 4)              // refcount_order: 16-bit refcounts
	be.PutUint32(img[100:], 104)           // header_length
	be.PutUint64(img[cluster:], 2*cluster) // the refcount block
	for i := range 4 {
		be.PutUint16(img[2*cluster+2*i:], 1)
	}
	return img
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
