package managerconfig

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/lib/workload"
)

func TestCacheOptions(t *testing.T) {
	tests := []struct {
		name           string
		namespaces     []string
		wantNamespaces []string
	}{
		{name: "cluster-wide"},
		{name: "one namespace", namespaces: []string{"openstack"}, wantNamespaces: []string{"openstack"}},
		{name: "several namespaces", namespaces: []string{"openstack", "tenant-a"}, wantNamespaces: []string{"openstack", "tenant-a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := CacheOptions("placement-operator", tt.namespaces...)
			kinds := FilteredKinds()
			if len(opts.ByObject) != len(kinds)+1 {
				t.Errorf("ByObject has %d entries, want one per filtered kind (%d) and Secrets", len(opts.ByObject), len(kinds))
			}
			for _, k := range kinds {
				var found bool
				for obj, by := range opts.ByObject {
					if reflect.TypeOf(obj) != reflect.TypeOf(k) {
						continue
					}
					found = true
					if by.Label == nil {
						t.Errorf("%T: no label selector", k)
						continue
					}
					if !by.Label.Matches(labels.Set{workload.ManagedByLabel: "placement-operator", "app": "x"}) {
						t.Errorf("%T: selector %q does not match managed-by=placement-operator", k, by.Label)
					}
					if by.Label.Matches(labels.Set{workload.ManagedByLabel: "glance-operator"}) || by.Label.Matches(labels.Set{}) {
						t.Errorf("%T: selector %q matches objects another operator or nobody manages", k, by.Label)
					}
				}
				if !found {
					t.Errorf("%T missing from ByObject", k)
				}
			}
			var got []string
			for ns := range opts.DefaultNamespaces {
				got = append(got, ns)
			}
			slices.Sort(got)
			if !slices.Equal(got, tt.wantNamespaces) || (tt.wantNamespaces == nil) != (opts.DefaultNamespaces == nil) {
				t.Errorf("DefaultNamespaces = %v, want %v", opts.DefaultNamespaces, tt.wantNamespaces)
			}
		})
	}
}

func TestWorkloadKindsExcludeSecrets(t *testing.T) {
	for _, k := range FilteredKinds() {
		if _, ok := k.(*corev1.Secret); ok {
			t.Error("Secrets must not be a label-filtered workload kind: their data is never cached")
		}
	}
}

func TestProjectedKinds(t *testing.T) {
	gvk := func(g, v, k string) schema.GroupVersionKind {
		return schema.GroupVersionKind{Group: g, Version: v, Kind: k}
	}
	want := []schema.GroupVersionKind{
		gvk("apps", "v1", "Deployment"),
		gvk("", "v1", "Service"),
		gvk("", "v1", "ConfigMap"),
		gvk("batch", "v1", "Job"),
		gvk("policy", "v1", "PodDisruptionBudget"),
		gvk("autoscaling", "v2", "HorizontalPodAutoscaler"),
		gvk("networking.k8s.io", "v1", "NetworkPolicy"),
		gvk("", "v1", "Secret"),
		gvk("gateway.networking.k8s.io", "v1", "HTTPRoute"),
		gvk("k8s.mariadb.com", "v1alpha1", "Database"),
		gvk("k8s.mariadb.com", "v1alpha1", "User"),
		gvk("k8s.mariadb.com", "v1alpha1", "Grant"),
	}
	withoutGateway := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(withoutGateway); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		scheme    *runtime.Scheme
		owned     []client.Object
		want      []schema.GroupVersionKind
		wantErrIn string
	}{
		{name: "operator scheme", scheme: NewScheme(), want: want},
		{name: "with a CronJob", scheme: NewScheme(), owned: WorkloadKinds(&batchv1.CronJob{}),
			want: slices.Insert(slices.Clone(want), 7, gvk("batch", "v1", "CronJob"))},
		{name: "scheme without Gateway API", scheme: withoutGateway, wantErrIn: "projected kind *v1.HTTPRoute"},
		{name: "empty scheme", scheme: runtime.NewScheme(), wantErrIn: "projected kind *v1.Deployment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			owned := tt.owned
			if owned == nil {
				owned = WorkloadKinds()
			}
			got, err := ProjectedKinds(tt.scheme, owned)
			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErrIn)
				}
				return
			}
			if err != nil {
				t.Fatalf("ProjectedKinds: %v", err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("kinds (-want +got):\n%s", d)
			}
		})
	}
}

func TestClientOptions(t *testing.T) {
	opts := ClientOptions()
	if opts.Cache == nil {
		t.Fatal("no cache options: Secrets would be read from the cache")
	}
	if len(opts.Cache.DisableFor) != 1 {
		t.Fatalf("DisableFor = %v, want Secrets only", opts.Cache.DisableFor)
	}
	if _, ok := opts.Cache.DisableFor[0].(*corev1.Secret); !ok {
		t.Errorf("DisableFor[0] = %T, want *v1.Secret", opts.Cache.DisableFor[0])
	}
	if opts.Cache.Unstructured {
		t.Error("unstructured objects must stay cached")
	}
}

func TestNewScheme(t *testing.T) {
	extraGV := schema.GroupVersion{Group: "test.openstack.c5c3.io", Version: "v1alpha1"}
	var called int
	s := NewScheme(func(s *runtime.Scheme) error {
		called++
		s.AddKnownTypeWithName(extraGV.WithKind("Marker"), &corev1.ConfigMap{})
		return nil
	})
	if called != 1 {
		t.Errorf("add funcs called %d times, want 1", called)
	}
	for _, obj := range []runtime.Object{&corev1.Secret{}, &mariadbv1alpha1.MariaDB{}, &gatewayv1.HTTPRoute{}} {
		if _, err := apiutil.GVKForObject(obj, s); err != nil {
			t.Errorf("%T not registered: %v", obj, err)
		}
	}
	if !s.Recognizes(extraGV.WithKind("Marker")) {
		t.Error("the extra registration was not applied")
	}
}
