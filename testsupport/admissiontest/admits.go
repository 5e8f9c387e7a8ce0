package admissiontest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// create creates obj and reads it back as the API server stored it.
func (k Kind[T]) create(t *testing.T, c client.Client, obj T) T {
	t.Helper()
	ctx := context.Background()
	if err := c.Create(ctx, obj); err != nil {
		t.Fatalf("create: %v", err)
	}
	got := k.New(obj.GetName())
	if err := c.Get(ctx, client.ObjectKeyFromObject(obj), got); err != nil {
		t.Fatal(err)
	}
	return got
}

// AdmitsAndDefaults creates the smallest object, wants it admitted without
// warnings and stored with the shared webhook defaults (resources as want)
// and no render-time default; it returns the stored object.
func (k Kind[T]) AdmitsAndDefaults(t *testing.T, s *Suite, want corev1.ResourceRequirements) T {
	t.Helper()
	s.Warnings.Take()
	got := k.create(t, s.Client, k.New("minimal"))
	if w := s.Warnings.Take(); len(w) != 0 {
		t.Errorf("warnings = %q", w)
	}
	spec := k.Target(got).Spec
	d := spec.Deployment
	if d == nil || d.Replicas != 3 {
		t.Fatalf("deployment = %+v, want replicas 3", d)
	}
	if !equality.Semantic.DeepEqual(d.Resources, want) {
		t.Errorf("resources = %+v, want %+v", d.Resources, want)
	}
	if spec.Cache.Backend != "dogpile.cache.pymemcache" {
		t.Errorf("cache.backend = %q", spec.Cache.Backend)
	}
	if l := spec.Logging; l == nil || l.Format != "text" || l.Level != "INFO" || l.Debug == nil || *l.Debug {
		t.Errorf("logging = %+v", l)
	}
	u := spec.ServiceUser
	if u.Username != k.Service || u.ProjectName != "service" || u.UserDomainName != "Default" ||
		u.ProjectDomainName != "Default" || u.SecretRef.Key != "password" {
		t.Errorf("serviceUser = %+v", u)
	}
	// Schema defaults of the ignored compatibility fields.
	if spec.Database.Replicas != 3 || spec.Database.StorageSize != "100Gi" || spec.Cache.Replicas != 3 {
		t.Errorf("schema defaults: database %d/%s, cache %d", spec.Database.Replicas, spec.Database.StorageSize, spec.Cache.Replicas)
	}
	// Render-time defaults are never persisted.
	if spec.SecretStoreRef != nil || d.TerminationGracePeriodSeconds != nil || d.PreStopSleepSeconds != nil ||
		d.Strategy != nil || d.TopologySpreadConstraints != nil || spec.Database.CredentialsMode != "" || spec.Database.Port != 0 {
		t.Errorf("render-only defaults persisted: %+v", spec)
	}
	return got
}

// AdmitsAndDefaultsUWSGIBlock fills the uwsgi leaves of a written block only.
func (k Kind[T]) AdmitsAndDefaultsUWSGIBlock(t *testing.T, s *Suite) {
	t.Helper()
	obj := k.New("uwsgi-defaults")
	k.Target(obj).UWSGI().HTTPKeepAliveTimeout = new(int32(15))
	u := k.Target(k.create(t, s.Client, obj)).UWSGI()
	if u.Processes != 2 || u.Threads != 1 || u.HTTPKeepAlive == nil || !*u.HTTPKeepAlive || *u.HTTPKeepAliveTimeout != 15 || u.Harakiri != nil {
		t.Errorf("uwsgi = %+v", u)
	}
}

// AdmitsSetValuesUnchanged checks that the defaults never overwrite a written value.
func (k Kind[T]) AdmitsSetValuesUnchanged(t *testing.T, s *Suite) {
	t.Helper()
	obj := k.New("explicit-values")
	tg := k.Target(obj)
	d := tg.Deployment()
	d.Replicas = 1
	d.Resources.Limits = corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("2Gi")}
	d.PriorityClassName = new(PriorityClass)
	tg.Spec.Cache.Backend = "dogpile.cache.memcached"
	tg.Spec.Logging = &serviceapi.LoggingSpec{Format: "json", Level: "ERROR", Debug: new(true)}
	tg.Spec.ServiceUser.Username = "svc"
	tg.Spec.ServiceUser.SecretRef.Key = "pw"
	got := k.Target(k.create(t, s.Client, obj)).Spec
	if got.Deployment.Replicas != 1 || len(got.Deployment.Resources.Requests) != 0 || len(got.Deployment.Resources.Limits) != 1 ||
		got.Cache.Backend != "dogpile.cache.memcached" || got.Logging.Format != "json" || got.Logging.Level != "ERROR" ||
		!*got.Logging.Debug || got.ServiceUser.Username != "svc" || got.ServiceUser.SecretRef.Key != "pw" {
		t.Errorf("set values changed: %+v", got)
	}
}

// EmptySpreadListSurvivesDefaulting checks that an explicit empty spread list disables
// the defaults, so the mutating webhook's re-encoding must keep it empty,
// not absent, and keep an absent one absent.
func (k Kind[T]) EmptySpreadListSurvivesDefaulting(t *testing.T, s *Suite) {
	t.Helper()
	obj := k.New("no-spread")
	k.Target(obj).Spec.Deployment = &serviceapi.DeploymentSpec{TopologySpreadConstraints: []corev1.TopologySpreadConstraint{}}
	if k.Target(k.create(t, s.Client, obj)).Spec.Deployment.TopologySpreadConstraints == nil {
		t.Fatalf("topologySpreadConstraints [] was dropped; the rendered Deployment would get the default spread")
	}
	if got := k.Target(k.create(t, s.Client, k.New("default-spread"))).Spec.Deployment.TopologySpreadConstraints; got != nil {
		t.Errorf("absent list came back as %v", got)
	}
}

// FinalizerRemovalAfterPriorityClassDeleted checks that an object whose PriorityClass
// disappeared must still be deletable, though its finalizer is removed by an
// UPDATE that passes through the webhook.
func (k Kind[T]) FinalizerRemovalAfterPriorityClassDeleted(t *testing.T, s *Suite, finalizer string) {
	t.Helper()
	ctx := context.Background()
	pc := &schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "short-lived"}, Value: 10}
	if err := s.Client.Create(ctx, pc); err != nil {
		t.Fatal(err)
	}
	obj := k.New("finalizing")
	obj.SetFinalizers([]string{finalizer})
	k.Target(obj).Deployment().PriorityClassName = new(pc.Name)
	if err := s.Client.Create(ctx, obj); err != nil {
		t.Fatalf("create: %v", err)
	}
	if err := s.Client.Delete(ctx, pc); err != nil {
		t.Fatal(err)
	}
	if err := s.Client.Delete(ctx, obj); err != nil {
		t.Fatal(err)
	}
	if err := s.Client.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
		t.Fatal(err)
	}
	obj.SetFinalizers(nil)
	if err := s.Client.Update(ctx, obj); err != nil {
		t.Fatalf("finalizer removal refused: %v", err)
	}
	if err := s.Client.Get(ctx, client.ObjectKeyFromObject(obj), obj); !apierrors.IsNotFound(err) {
		t.Errorf("object still present after finalizer removal: %v", err)
	}
}

// RefusalAccumulates checks that every violation the webhook finds arrives in one 422.
func (k Kind[T]) RefusalAccumulates(t *testing.T, s *Suite, cat Catalog) {
	t.Helper()
	obj := k.New("refused-all")
	tg := k.Target(obj)
	tg.Spec.Region = "a\nb"
	tg.Deployment().PriorityClassName = new("no-such-class")
	tg.Spec.ExtraConfig = map[string]map[string]string{"keystone_authtoken": {"password": Secret}, cat.Section: {"bogus": "1"}}
	err := s.Client.Create(context.Background(), obj)
	k.CheckRefused(t, err, "V", []string{"spec.region", "spec.deployment.priorityClassName",
		"spec.extraConfig[keystone_authtoken][password]", "spec.extraConfig[" + cat.Section + "][bogus]"})
	if status, ok := err.(apierrors.APIStatus); !ok || status.Status().Code != 422 {
		t.Errorf("status = %+v, want code 422", err)
	}
}

// AdmitsDeprecatedOptionWithWarning checks that a deprecated option is admitted with
// one warning naming its replacement.
func (k Kind[T]) AdmitsDeprecatedOptionWithWarning(t *testing.T, s *Suite, cat Catalog) {
	t.Helper()
	s.Warnings.Take()
	obj := k.New("deprecated-option")
	k.Target(obj).Spec.ExtraConfig = map[string]map[string]string{
		"keystone_authtoken": {"memcache_servers": "m:11211"},
		cat.Section:          {cat.Option: "1000"},
	}
	if err := s.Client.Create(context.Background(), obj); err != nil {
		t.Fatalf("create: %v", err)
	}
	want := []string{"[keystone_authtoken] memcache_servers is deprecated, replaced by [keystone_authtoken] memcached_servers"}
	if got := s.Warnings.Take(); !slices.Equal(got, want) {
		t.Errorf("warnings = %q, want %q", got, want)
	}
}

// AdmitsReleaseWithoutCatalogWithOneWarning checks that no catalog, one warning naming
// the release, however many options go unchecked.
func (k Kind[T]) AdmitsReleaseWithoutCatalogWithOneWarning(t *testing.T, s *Suite, cat Catalog) {
	t.Helper()
	s.Warnings.Take()
	obj := k.New("no-catalog")
	tg := k.Target(obj)
	tg.Spec.OpenStackRelease = "2024.1"
	tg.Spec.ExtraConfig = map[string]map[string]string{cat.Section: {"a": "1", "b": "2"}, "nova": {"c": "3"}}
	if err := s.Client.Create(context.Background(), obj); err != nil {
		t.Fatalf("create: %v", err)
	}
	got := s.Warnings.Take()
	if len(got) != 1 || !strings.Contains(got[0], "no option catalog for "+k.Service+" release 2024.1") {
		t.Errorf("warnings = %q, want exactly one naming the release", got)
	}
}

// Update is an admitted object and a change to it.
type Update[T client.Object] struct {
	Name           string
	Create, Update func(T)
	Layer          string // "" = admitted without warnings; else as Refusal.Layer
	Want           []string
}

// ServiceUpdates are the shared rules of an update.
func (k Kind[T]) ServiceUpdates(cat Catalog) []Update[T] {
	with := func(mut func(Target)) func(T) { return func(obj T) { mut(k.Target(obj)) } }
	ref := func(name string) func(Target) {
		return func(t Target) { t.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: name} }
	}
	unknown := func(t Target) {
		t.Spec.OpenStackRelease = "2024.2" // no catalog: admitted with a warning
		t.Spec.ExtraConfig = map[string]map[string]string{cat.Section: {"no_such_option": "1"}}
	}
	none := func(T) {}
	return []Update[T]{
		{Name: "targetClusterRef name changed", Create: with(ref("edge-a")), Update: with(ref("edge-b")),
			Layer: "S", Want: []string{"targetClusterRef is immutable"}},
		{Name: "targetClusterRef added", Create: none, Update: with(ref("edge-a")),
			Layer: "S", Want: []string{"targetClusterRef is immutable"}},
		{Name: "targetClusterRef removed", Create: with(ref("edge-a")), Update: with(func(t Target) { t.Spec.TargetClusterRef = nil }),
			Layer: "S", Want: []string{"targetClusterRef is immutable"}},
		{Name: "image switched to tag and digest", Create: none,
			Update: with(func(t Target) { t.Spec.Image.Digest = "sha256:" + strings.Repeat("b", 64) }),
			Layer:  "S", Want: []string{"exactly one of image.tag or image.digest"}},
		{Name: "unknown option kept, unrelated change: catalog skipped", Create: with(unknown),
			Update: with(func(t Target) { t.Spec.Region = "RegionTwo" })},
		{Name: "unknown option kept, release moves to a catalog release", Create: with(unknown),
			Update: with(func(t Target) { t.Spec.OpenStackRelease = cat.Release }),
			Layer:  "V", Want: []string{"spec.extraConfig[" + cat.Section + "][no_such_option]", k.Service + " " + cat.Release + " option catalog"}},
		{Name: "V rule on update", Create: none, Update: with(func(t Target) { t.Spec.ServiceUser.Username = "x\ny" }),
			Layer: "V", Want: []string{"spec.serviceUser.username"}},
	}
}

// Updates creates each case's object, applies its change as an UPDATE and
// checks the answer.
func (k Kind[T]) Updates(t *testing.T, s *Suite, prefix string, cases []Update[T]) {
	t.Helper()
	ctx := context.Background()
	for i, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			obj := k.New(fmt.Sprintf("%s-%02d", prefix, i))
			tc.Create(obj)
			if err := s.Client.Create(ctx, obj); err != nil {
				t.Fatalf("create: %v", err)
			}
			s.Warnings.Take()
			tc.Update(obj)
			err := s.Client.Update(ctx, obj)
			if tc.Layer == "" {
				if err != nil {
					t.Fatalf("update refused: %v", err)
				}
				if w := s.Warnings.Take(); len(w) != 0 {
					t.Errorf("update warnings %q, want none (the catalog is skipped)", w)
				}
				return
			}
			k.CheckRefused(t, err, tc.Layer, tc.Want)
		})
	}
}

// SharedAdmission runs, as subtests, every admission case the shared
// service spec brings to any service kind: the uWSGI block defaulting, set
// values kept, an empty spread list kept, accumulated refusals, the
// finalizer removal after a PriorityClass is gone, and the catalog
// warnings. The refusal, update and missing-field tables are the kind's
// own (ServiceRefusals, ServiceUpdates and ServiceMissing plus its rules).
func (k Kind[T]) SharedAdmission(t *testing.T, s *Suite, cat Catalog, finalizer string) {
	t.Run("UWSGIBlock", func(t *testing.T) { k.AdmitsAndDefaultsUWSGIBlock(t, s) })
	t.Run("SetValuesUnchanged", func(t *testing.T) { k.AdmitsSetValuesUnchanged(t, s) })
	t.Run("EmptySpreadList", func(t *testing.T) { k.EmptySpreadListSurvivesDefaulting(t, s) })
	t.Run("RefusalAccumulates", func(t *testing.T) { k.RefusalAccumulates(t, s, cat) })
	t.Run("FinalizerRemoval", func(t *testing.T) { k.FinalizerRemovalAfterPriorityClassDeleted(t, s, finalizer) })
	t.Run("DeprecatedOptionWarns", func(t *testing.T) { k.AdmitsDeprecatedOptionWithWarning(t, s, cat) })
	t.Run("ReleaseWithoutCatalogWarnsOnce", func(t *testing.T) { k.AdmitsReleaseWithoutCatalogWithOneWarning(t, s, cat) })
}

// Edge is an object on the edge of a rule: admitted, without a warning.
type Edge[T client.Object] struct {
	Name string
	Mut  func(T)
}

// AdmitsEdges creates each edge case (named edge-NN) and fails on a
// refusal or a warning.
func (k Kind[T]) AdmitsEdges(t *testing.T, s *Suite, cases []Edge[T]) {
	t.Helper()
	for i, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			obj := k.New(fmt.Sprintf("edge-%02d", i))
			tc.Mut(obj)
			if w := s.Admit(t, obj); len(w) != 0 {
				t.Errorf("warnings %q", w)
			}
		})
	}
}
