package managerconfig

import (
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/cache"

	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

var (
	created = metav1.Date(2026, 1, 2, 3, 4, 5, 0, metav1.Now().Location())
	deleted = metav1.Date(2026, 1, 3, 3, 4, 5, 0, metav1.Now().Location())
)

func managedFields() []metav1.ManagedFieldsEntry {
	return []metav1.ManagedFieldsEntry{{
		Manager: "kubectl", Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: "v1", Time: &created,
		FieldsType: "FieldsV1", FieldsV1: metav1.NewFieldsV1(`{"f:data":{".":{},"f:password":{}},"f:type":{}}`),
	}}
}

// secretByObject is the ByObject entry of Secrets in opts, or fails.
func secretByObject(t *testing.T, opts cache.Options) cache.ByObject {
	t.Helper()
	for obj, by := range opts.ByObject {
		if _, ok := obj.(*corev1.Secret); ok {
			return by
		}
	}
	t.Fatal("no ByObject entry for Secrets")
	return cache.ByObject{}
}

func TestCacheOptionsTransforms(t *testing.T) {
	for _, namespaces := range [][]string{nil, {"openstack"}} {
		opts := CacheOptions("placement-operator", namespaces...)
		if opts.DefaultTransform == nil {
			t.Fatal("no DefaultTransform: cached objects keep their managedFields")
		}
		for obj, by := range opts.ByObject {
			if _, ok := obj.(*corev1.Secret); ok {
				continue
			}
			// A nil Transform inherits DefaultTransform; another one would
			// have to strip managedFields itself.
			if by.Transform != nil {
				t.Errorf("%T: own Transform, want the default one", obj)
			}
		}
		sec := secretByObject(t, opts)
		if sec.Transform == nil {
			t.Error("Secrets: no Transform: every Secret of the cluster keeps its whole metadata")
		}
		// Referenced credential Secrets may be hand-made or written by ESO:
		// a selector would hide them and their changes.
		if sec.Label != nil || sec.Field != nil || sec.Namespaces != nil {
			t.Errorf("Secrets: selected (label %v, field %v, namespaces %v), want every Secret of the cache's namespaces", sec.Label, sec.Field, sec.Namespaces)
		}
	}
}

func TestDefaultTransformStripsManagedFieldsOnly(t *testing.T) {
	tr := CacheOptions("placement-operator").DefaultTransform
	if tr == nil {
		t.Fatal("no DefaultTransform")
	}
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{
		Name: "placement", Namespace: "openstack", ResourceVersion: "7",
		Labels: map[string]string{"app": "placement"}, Annotations: map[string]string{"a": "b"},
		ManagedFields: managedFields(),
	}, Spec: appsv1.DeploymentSpec{Replicas: ptr.To[int32](3)}}
	want := d.DeepCopy()
	want.ManagedFields = nil
	got, err := tr(d)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("transformed Deployment (-want +got):\n%s", d)
	}

	u := &unstructured.Unstructured{}
	u.SetAPIVersion("external-secrets.io/v1")
	u.SetKind("ClusterSecretStore")
	u.SetName("openbao-cluster-store")
	u.SetLabels(map[string]string{"x": "y"})
	u.SetManagedFields(managedFields())
	got, err = tr(u)
	if err != nil {
		t.Fatal(err)
	}
	gu := got.(*unstructured.Unstructured)
	if _, found, _ := unstructured.NestedFieldNoCopy(gu.Object, "metadata", "managedFields"); found {
		t.Error("unstructured store keeps its managedFields")
	}
	if gu.GetLabels()["x"] != "y" {
		t.Errorf("unstructured store lost its labels: %v", gu.GetLabels())
	}
}

func TestTrimSecretMetadata(t *testing.T) {
	tr := secretByObject(t, CacheOptions("placement-operator")).Transform
	owner := metav1.OwnerReference{APIVersion: "placement.openstack.c5c3.io/v1alpha1", Kind: "Placement", Name: "placement",
		UID: "cr-uid", Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}
	meta := func(labels map[string]string) *metav1.PartialObjectMetadata {
		return &metav1.PartialObjectMetadata{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
			ObjectMeta: metav1.ObjectMeta{
				Name: "placement-db-connection", GenerateName: "placement-", Namespace: "openstack",
				UID: "secret-uid", ResourceVersion: "42", Generation: 0, CreationTimestamp: created,
				DeletionTimestamp: &deleted, DeletionGracePeriodSeconds: ptr.To[int64](0),
				Labels: labels,
				Annotations: map[string]string{
					"kubectl.kubernetes.io/last-applied-configuration": `{"data":{"password":"` + strings.Repeat("x", 512) + `"}}`,
					"reconcile.external-secrets.io/data-hash":          "abc",
				},
				OwnerReferences: []metav1.OwnerReference{owner},
				Finalizers:      []string{"example.org/keep"},
				ManagedFields:   managedFields(),
			},
		}
	}
	trimmed := func(labels map[string]string) *metav1.PartialObjectMetadata {
		return &metav1.PartialObjectMetadata{
			TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
			ObjectMeta: metav1.ObjectMeta{
				Name: "placement-db-connection", Namespace: "openstack", UID: "secret-uid", ResourceVersion: "42",
				CreationTimestamp: created, DeletionTimestamp: &deleted,
				Labels: labels, OwnerReferences: []metav1.OwnerReference{owner},
			},
		}
	}
	ownership := map[string]string{
		workload.ManagedByLabel:           "placement-operator",
		targetcluster.LabelOwnerKind:      "Placement",
		targetcluster.LabelOwnerName:      "placement",
		targetcluster.LabelOwnerNamespace: "openstack",
		workload.ConfigBaseLabel:          "glance-backends",
	}
	withOthers := map[string]string{"app.kubernetes.io/name": "placement", "team": "cloud"}
	for k, v := range ownership {
		withOthers[k] = v
	}
	tests := []struct {
		name string
		in   *metav1.PartialObjectMetadata
		want *metav1.PartialObjectMetadata
	}{
		{name: "owned Secret keeps the ownership labels only", in: meta(withOthers), want: trimmed(ownership)},
		{name: "foreign labels only", in: meta(map[string]string{"team": "cloud"}), want: trimmed(nil)},
		{name: "no labels", in: meta(nil), want: trimmed(nil)},
		{name: "already trimmed", in: trimmed(ownership), want: trimmed(ownership)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tr(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("trimmed Secret metadata (-want +got):\n%s", d)
			}
			again, err := tr(got)
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(tt.want, again); d != "" {
				t.Errorf("trimming twice differs from once (-want +got):\n%s", d)
			}
		})
	}
}

func TestTrimSecretMetadataOtherObjects(t *testing.T) {
	tr := secretByObject(t, CacheOptions("placement-operator")).Transform
	s := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "db", Namespace: "openstack", Labels: map[string]string{"team": "cloud"},
			Annotations: map[string]string{"a": "b"}, ManagedFields: managedFields()},
		Data: map[string][]byte{"password": []byte("secret")},
	}
	want := s.DeepCopy()
	want.ManagedFields = nil
	got, err := tr(s)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("typed Secret (-want +got):\n%s", d)
	}
	tomb := toolscache.DeletedFinalStateUnknown{Key: "openstack/db", Obj: &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Name: "db", UID: types.UID("db"), ManagedFields: managedFields()}}}
	got, err = tr(tomb)
	if err != nil {
		t.Fatalf("tombstone: %v", err)
	}
	if !reflect.DeepEqual(got, tomb) {
		t.Errorf("tombstone changed: %+v", got)
	}
}
