package tempest

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

const output = `{1} setUpClass (tempest.api.image.v1.test_images.ListImagesTest) ... SKIPPED: Glance API v1 not supported
{0} tempest.api.image.v2.test_images.ListImagesTest.test_list_no_params[id-1e341d7a,smoke] [0.057s] ... ok
{1} tempest.api.image.v2.test_images.BasicOperationsImagesTest.test_update_image [0.002694s] ... FAILED
{0} tempest.api.image.v2.test_images_negative.ImagesNegativeTest.test_create_image_reserved_property [0.001s] ... SKIPPED: os_glance_reserved is not enabled
{0} tempest.api.image.v2.test_versions.VersionsTest.test_list_versions [0.010s] ... ok

======
Totals
======
Ran: 5 tests in 1.2 sec.
 - Passed: 2
 - Skipped: 2
 - Expected Fail: 0
 - Unexpected Success: 0
 - Failed: 1
`

func TestParseReadsEveryResult(t *testing.T) {
	r, err := Parse(output)
	if err != nil {
		t.Fatal(err)
	}
	ids := func(s Status) []string {
		var out []string
		for _, res := range r.With(s) {
			out = append(out, res.ID)
		}
		return out
	}
	if got, want := ids(Passed), []string{
		"tempest.api.image.v2.test_images.ListImagesTest.test_list_no_params",
		"tempest.api.image.v2.test_versions.VersionsTest.test_list_versions",
	}; !slices.Equal(got, want) {
		t.Errorf("passed %v, want %v", got, want)
	}
	if got := ids(Failed); !slices.Equal(got, []string{"tempest.api.image.v2.test_images.BasicOperationsImagesTest.test_update_image"}) {
		t.Errorf("failed %v", got)
	}
	skipped := r.With(Skipped)
	if len(skipped) != 2 || skipped[0].ID != "setUpClass (tempest.api.image.v1.test_images.ListImagesTest)" ||
		skipped[0].Reason != "Glance API v1 not supported" || skipped[1].Reason != "os_glance_reserved is not enabled" {
		t.Errorf("skipped %+v", skipped)
	}
}

func TestParseRefusesOutputThatDoesNotAddUp(t *testing.T) {
	for name, out := range map[string]string{
		"no totals":         strings.Split(output, "\n======")[0],
		"a line not read":   strings.Replace(output, " - Passed: 2", " - Passed: 3", 1),
		"a failure dropped": strings.Replace(output, "... FAILED", "... FAILED oddly", 1),
		"discovery failed":  "The above traceback was encountered during test discovery\n",
	} {
		if _, err := Parse(out); err == nil {
			t.Errorf("%s: Parse accepted it", name)
		}
	}
}

func TestSkipsNeedAReason(t *testing.T) {
	r, err := Parse(output)
	if err != nil {
		t.Fatal(err)
	}
	v1 := Skip{Reason: regexp.MustCompile(`^Glance API v1 not supported$`), Why: "the Image API v1 was removed"}
	api := Skip{Reason: regexp.MustCompile(`API`), Why: "any API"}
	if got := r.Unexplained([]Skip{v1}); len(got) != 1 || got[0].Reason != "os_glance_reserved is not enabled" {
		t.Errorf("unexplained %+v, want the os_glance_reserved skip", got)
	}
	if got := r.Unexplained([]Skip{v1, {Reason: regexp.MustCompile(`os_glance_reserved`), Why: "x"}}); len(got) != 0 {
		t.Errorf("unexplained %+v, want none", got)
	}
	// The first entry that matches takes the skip.
	if got := r.SkipClasses([]Skip{v1, api}); !slices.Equal(got, []SkipClass{{Why: v1.Why, Count: 1}}) {
		t.Errorf("classes %+v", got)
	}
}

func TestConfNamesTheDeployment(t *testing.T) {
	c := Cloud{IdentityURL: "http://127.0.0.1:5000/v3", Region: "RegionOne", AdminUser: "admin", AdminPassword: "pw", AdminProject: "admin",
		Image: &Image{Import: true, HTTPImage: "http://127.0.0.1:8080/cirros.img"}, EnforceScope: true}
	got := c.Conf("/tmp/ws")
	for _, want := range []string{
		"[auth]\nadmin_username = admin\nadmin_password = pw\nadmin_project_name = admin\nadmin_domain_name = Default\nuse_dynamic_credentials = true\n",
		"uri_v3 = http://127.0.0.1:5000/v3\n",
		"glance = true\nbarbican = false\nnova = false\n",
		"[image]\nregion = RegionOne\nimage_caching_enabled = false\nhttp_image = http://127.0.0.1:8080/cirros.img\n",
		"import_image = true\n",
		"log_dir = /tmp/ws/logs\n",
		"[enforce_scope]\nglance = true\nbarbican = false\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("tempest.conf lacks %q:\n%s", want, got)
		}
	}
	km := Cloud{KeyManager: &KeyManager{MultipleSecretStores: true}}.Conf("/tmp/ws")
	if strings.Contains(km, "[image]") || !strings.Contains(km, "glance = false\nbarbican = true\n") ||
		!strings.Contains(km, "[barbican_tempest]\nenable_multiple_secret_stores = true\n") ||
		!strings.Contains(km, "[enforce_scope]\nglance = false\nbarbican = false\n") {
		t.Errorf("a key-manager cloud:\n%s", km)
	}
}
