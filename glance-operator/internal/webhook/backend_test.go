package webhook

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/fixture"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

func backend(name string, isDefault bool) *glancev1.GlanceBackend {
	b := fixture.S3Backend("openstack", name, "glance", "s3-creds", isDefault)
	ApplyBackend(b)
	return b
}

func backendValidator(funcs *interceptor.Funcs, objs ...client.Object) *BackendValidator {
	return &BackendValidator{Reader: at.FakeReader(glancev1.AddToScheme, funcs, objs...)}
}

// One case per GlanceBackend rule of glance-api.md §5 that needs no lookup.
func TestBackendSpecRules(t *testing.T) {
	options := func(kv map[string]string) func(b *glancev1.GlanceBackend) {
		return func(b *glancev1.GlanceBackend) { b.Spec.ExtraOptions = kv }
	}
	named := func(n string) func(b *glancev1.GlanceBackend) { return func(b *glancev1.GlanceBackend) { b.Name = n } }
	cases := map[string]struct {
		mut  func(b *glancev1.GlanceBackend)
		want []at.FieldErr
	}{
		"name default":                 {named("default"), errsOf(at.Invalid("metadata.name"))},
		"name DEFAULT, any case":       {named("Database"), errsOf(at.Invalid("metadata.name"))},
		"name keystone_authtoken":      {named("keystone_authtoken"), errsOf(at.Invalid("metadata.name"))},
		"name glance_store":            {named("glance_store"), errsOf(at.Invalid("metadata.name"))},
		"name paste_deploy":            {named("paste_deploy"), errsOf(at.Invalid("metadata.name"))},
		"name oslo_policy":             {named("oslo_policy"), errsOf(at.Invalid("metadata.name"))},
		"name os_glance_staging_store": {named("os_glance_staging_store"), errsOf(at.Invalid("metadata.name"))},
		"name os_glance_tasks_store":   {named("os_glance_tasks_store"), errsOf(at.Invalid("metadata.name"))},
		"name prefix os_glance_":       {named("os_glance_x"), errsOf(at.Invalid("metadata.name"))},
		"name prefix os-glance-":       {named("os-glance-x"), errsOf(at.Invalid("metadata.name"))},
		"name glance-store admitted":   {named("glance-store"), nil},
		"option key pattern":           {options(map[string]string{"s3-store-x": "1", "a b": "2"}), errsOf(at.Invalid("spec.extraOptions[a b]"), at.Invalid("spec.extraOptions[s3-store-x]"))},
		"typed keys": {options(map[string]string{"s3_store_host": "h", "s3_store_secret_key": "k", "s3_store_large_object_chunk_size": "5"}),
			errsOf(at.Forbidden("spec.extraOptions[s3_store_host]"), at.Forbidden("spec.extraOptions[s3_store_large_object_chunk_size]"),
				at.Forbidden("spec.extraOptions[s3_store_secret_key]"))},
		"store_description":          {options(map[string]string{"store_description": "fast"}), errsOf(at.Forbidden("spec.extraOptions[store_description]"))},
		"value CR LF":                {options(map[string]string{"s3_store_thread_pools": "10\n[DEFAULT]"}), errsOf(at.Invalid("spec.extraOptions[s3_store_thread_pools]"))},
		"untyped s3 option admitted": {options(map[string]string{"s3_store_thread_pools": "10", "s3_store_cacert": "/ca"}), nil},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			b := backend("minio", false)
			tc.mut(b)
			if got := at.Summarize(BackendSpec(b)); !slices.Equal(got, tc.want) {
				t.Errorf("errors = %v, want %v", got, tc.want)
			}
		})
	}
}

// The typed keys are derived from the renderer, so a new typed field is
// refused in extraOptions without a list to update here.
func TestTypedKeysCoverEveryS3Field(t *testing.T) {
	slices.Sort(typedKeys)
	want := []string{"s3_store_access_key", "s3_store_bucket", "s3_store_bucket_url_format", "s3_store_create_bucket_on_put",
		"s3_store_host", "s3_store_large_object_chunk_size", "s3_store_large_object_size", "s3_store_region_name", "s3_store_secret_key"}
	if !slices.Equal(typedKeys, want) {
		t.Errorf("typed keys = %q, want %q", typedKeys, want)
	}
}

// isDefault while another live default backend of the same Glance exists.
func TestBackendDefaultSiblings(t *testing.T) {
	terminating := backend("old", true)
	terminating.Finalizers, terminating.DeletionTimestamp = []string{"x"}, new(metav1.Now())
	otherGlance := backend("other", true)
	otherGlance.Spec.GlanceRef.Name = "glance-b"
	otherNS := backend("elsewhere", true)
	otherNS.Namespace = "tenant"
	cases := []struct {
		name     string
		siblings []client.Object
		self     *glancev1.GlanceBackend
		refused  string // names in the refusal; "" = admitted
	}{
		{"first default", nil, backend("minio", true), ""},
		{"second default", []client.Object{backend("a", true), backend("b", true), backend("c", false)}, backend("minio", true), "a, b"},
		{"not default", []client.Object{backend("a", true)}, backend("minio", false), ""},
		{"terminating, other Glance or namespace ignored", []client.Object{terminating, otherGlance, otherNS}, backend("minio", true), ""},
		{"itself on update", []client.Object{backend("minio", true)}, backend("minio", true), ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := backendValidator(nil, tc.siblings...)
			_, err := v.Validate(context.Background(), tc.self, nil)
			if tc.refused == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if got := at.Causes(t, err, BackendKind); !slices.Equal(got, errsOf(at.Forbidden("spec.isDefault"))) {
				t.Fatalf("causes = %v", got)
			}
			if !strings.Contains(err.Error(), `Glance "glance" already has the default backend `+tc.refused) {
				t.Errorf("message = %v", err)
			}
		})
	}
	boom := backendValidator(&interceptor.Funcs{List: func(context.Context, client.WithWatch, client.ObjectList, ...client.ListOption) error {
		return errors.New("etcd unavailable")
	}})
	if _, err := boom.Validate(context.Background(), backend("minio", true), nil); !apierrors.IsInternalError(err) {
		t.Errorf("failed LIST: %v, want InternalError", err)
	}
	// A backend left default beside another can still lose its finalizer.
	self := backend("a", true)
	self.Finalizers, self.DeletionTimestamp = []string{"x"}, new(metav1.Now())
	if _, err := backendValidator(nil, backend("b", true)).Hook().ValidateUpdate(context.Background(), self.DeepCopy(), self); err != nil {
		t.Errorf("terminating update refused: %v", err)
	}
}

func TestBackendValidAdmittedWithoutWarnings(t *testing.T) {
	b := backend("minio", true)
	b.Spec.S3.Region, b.Spec.S3.CreateBucketOnPut = "eu-1", true
	b.Spec.ExtraOptions = map[string]string{"s3_store_thread_pools": "10"}
	w, err := backendValidator(nil, backend("ceph", false)).Hook().ValidateCreate(context.Background(), b)
	if err != nil || len(w) != 0 {
		t.Fatalf("warnings %q, err %v", w, err)
	}
}
