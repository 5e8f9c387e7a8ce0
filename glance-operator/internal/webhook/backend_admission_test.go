package webhook

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/controller-runtime/pkg/client"

	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/fixture"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

func TestAdmitsAndDefaultsBackend(t *testing.T) {
	ctx := context.Background()
	suite.Warnings.Take()
	b := backendKind.New("defaulted")
	if err := suite.Client.Create(ctx, b); err != nil {
		t.Fatalf("create: %v", err)
	}
	if w := suite.Warnings.Take(); len(w) != 0 {
		t.Errorf("warnings = %q", w)
	}
	var got glancev1.GlanceBackend
	if err := suite.Client.Get(ctx, client.ObjectKeyFromObject(b), &got); err != nil {
		t.Fatal(err)
	}
	if got.Spec.S3.BucketURLFormat != glancev1.BucketURLPath || got.Spec.IsDefault {
		t.Errorf("spec = %+v, want bucketURLFormat path and nothing else defaulted", got.Spec)
	}
}

// One invalid GlanceBackend per rule of glance-api.md §4 and §5.
func TestRefusesEveryBackendRule(t *testing.T) {
	r := func(name, object, layer string, mut func(b *glancev1.GlanceBackend), want ...string) at.Refusal[*glancev1.GlanceBackend] {
		return at.Refusal[*glancev1.GlanceBackend]{Name: name, Object: object, Mut: mut, Layer: layer, Want: want}
	}
	none := func(*glancev1.GlanceBackend) {}
	options := func(kv map[string]string) func(b *glancev1.GlanceBackend) {
		return func(b *glancev1.GlanceBackend) { b.Spec.ExtraOptions = kv }
	}
	many := map[string]string{}
	for i := range 33 {
		many["k"+strconv.Itoa(i)] = "v"
	}
	backendKind.Refuses(t, suite, "backend", []at.Refusal[*glancev1.GlanceBackend]{
		r("name default", "default", "V", none, "metadata.name", "names a section glance-api.conf or glance itself owns"),
		r("name database", "database", "V", none, "metadata.name"),
		r("name os-glance- prefix", "os-glance-images", "V", none, "metadata.name"),
		// Names with '_' (keystone_authtoken, os_glance_*) never pass the API
		// server's own name validation; the webhook refuses them as well.
		r("name with underscore", "os_glance_x", "S", none, "metadata.name"),
		r("option key pattern", "", "V", options(map[string]string{"s3-store-x": "1"}), "spec.extraOptions[s3-store-x]", "^[A-Za-z0-9_]+$"),
		r("typed option key", "", "V", options(map[string]string{"s3_store_bucket": "other"}),
			"spec.extraOptions[s3_store_bucket]", "rendered from the typed spec.s3 fields"),
		r("store_description", "", "V", options(map[string]string{"store_description": "fast"}), "spec.extraOptions[store_description]"),
		r("option value CR LF", "", "V", options(map[string]string{"s3_store_thread_pools": "10\n[DEFAULT]"}),
			"spec.extraOptions[s3_store_thread_pools]", "value must not contain CR or LF"),
		r("option key longer than 256", "", "S", options(map[string]string{strings.Repeat("k", 257): "v"}),
			"extraOptions keys must be at most 256 and values at most 1024 characters"),
		r("option value longer than 1024", "", "S", options(map[string]string{"k": strings.Repeat("v", 1025)}),
			"extraOptions keys must be at most 256 and values at most 1024 characters"),
		r("more than 32 options", "", "S", options(many), "spec.extraOptions"),
		r("s3 missing for type S3", "", "S", func(b *glancev1.GlanceBackend) { b.Spec.S3 = nil }, "s3 is required when type is S3"),
		r("type enum", "", "S", func(b *glancev1.GlanceBackend) { b.Spec.Type = "Swift" }, "spec.type", "Unsupported value"),
		r("host scheme", "", "S", func(b *glancev1.GlanceBackend) { b.Spec.S3.Host = "s3.example.org" }, "spec.s3.host"),
		r("bucket URL format enum", "", "S", func(b *glancev1.GlanceBackend) { b.Spec.S3.BucketURLFormat = "dns" }, "spec.s3.bucketURLFormat"),
		r("large object size below 1Mi", "", "V", func(b *glancev1.GlanceBackend) { b.Spec.S3.LargeObjectSize = new(resource.MustParse("512Ki")) },
			"spec.s3.largeObjectSize", "must be at least 1Mi"),
		r("large object chunk size zero", "", "V", func(b *glancev1.GlanceBackend) { b.Spec.S3.LargeObjectChunkSize = new(resource.MustParse("0")) },
			"spec.s3.largeObjectChunkSize", "must be at least 1Mi"),
	})
}

func TestBackendUpdateRules(t *testing.T) {
	backendKind.Updates(t, suite, "backend-update", []at.Update[*glancev1.GlanceBackend]{
		{Name: "glanceRef changed", Create: func(*glancev1.GlanceBackend) {},
			Update: func(b *glancev1.GlanceBackend) { b.Spec.GlanceRef.Name = "other" },
			Layer:  "S", Want: []string{"glanceRef is immutable"}},
		{Name: "type changed", Create: func(*glancev1.GlanceBackend) {},
			Update: func(b *glancev1.GlanceBackend) { b.Spec.Type, b.Spec.S3 = "", nil },
			Layer:  "S", Want: []string{"spec.type"}},
		{Name: "isDefault flipped, options changed", Create: func(*glancev1.GlanceBackend) {},
			Update: func(b *glancev1.GlanceBackend) {
				b.Spec.IsDefault = true
				b.Spec.ExtraOptions = map[string]string{"s3_store_thread_pools": "10"}
			}},
	})
}

// isDefault is refused while another live backend of the same Glance is
// default, and admitted again once that one is terminating.
func TestBackendOneDefaultPerGlance(t *testing.T) {
	ctx := context.Background()
	create := func(name, glance string, isDefault bool, finalizers ...string) *glancev1.GlanceBackend {
		b := fixture.S3Backend(at.Namespace, name, glance, "s3-creds", isDefault)
		b.Finalizers = finalizers
		return b
	}
	first := create("first-default", "glance-one", true, "test.example.org/hold")
	if err := suite.Client.Create(ctx, first); err != nil {
		t.Fatal(err)
	}
	for _, b := range []*glancev1.GlanceBackend{create("plain", "glance-one", false), create("other-glance", "glance-two", true)} {
		if err := suite.Client.Create(ctx, b); err != nil {
			t.Errorf("%s refused: %v", b.Name, err)
		}
	}
	second := create("second-default", "glance-one", true)
	backendKind.CheckRefused(t, suite.Client.Create(ctx, second), "V",
		[]string{"spec.isDefault", `Glance "glance-one" already has the default backend first-default`})
	plain := &glancev1.GlanceBackend{}
	if err := suite.Client.Get(ctx, client.ObjectKey{Namespace: at.Namespace, Name: "plain"}, plain); err != nil {
		t.Fatal(err)
	}
	plain.Spec.IsDefault = true
	backendKind.CheckRefused(t, suite.Client.Update(ctx, plain), "V", []string{"first-default"})

	// A terminating default no longer counts, and can still drop its finalizer.
	if err := suite.Client.Delete(ctx, first); err != nil {
		t.Fatal(err)
	}
	if err := suite.Client.Create(ctx, create("second-default", "glance-one", true)); err != nil {
		t.Fatalf("default beside a terminating one refused: %v", err)
	}
	if err := suite.Client.Get(ctx, client.ObjectKeyFromObject(first), first); err != nil {
		t.Fatal(err)
	}
	first.Finalizers = nil
	if err := suite.Client.Update(ctx, first); err != nil {
		t.Errorf("finalizer removal refused: %v", err)
	}
}

func TestRefusesMissingRequiredBackendField(t *testing.T) {
	var cases []at.Missing[*glancev1.GlanceBackend]
	for _, drop := range [][]string{
		{"spec", "glanceRef"}, {"spec", "glanceRef", "name"}, {"spec", "type"},
		{"spec", "s3", "host"}, {"spec", "s3", "bucket"},
		{"spec", "s3", "credentialsSecretRef"}, {"spec", "s3", "credentialsSecretRef", "name"},
	} {
		cases = append(cases, at.Missing[*glancev1.GlanceBackend]{Drop: drop})
	}
	backendKind.RefusesMissing(t, suite, "backend-missing", cases)
}
