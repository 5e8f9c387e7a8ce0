package admissiontest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// Missing is a manifest without one required field.
type Missing[T client.Object] struct {
	Drop []string // path removed from the manifest; an index selects a list item
	With func(T)  // adds the optional block the field lives in
	Want []string // fields reported missing; the dropped one when nil
}

// ServiceMissing drops each required field of the shared spec in turn.
func (k Kind[T]) ServiceMissing() []Missing[T] {
	with := func(mut func(Target)) func(T) { return func(obj T) { mut(k.Target(obj)) } }
	gateway := with(func(t Target) {
		t.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: k.Service + ".example.org", ParentRef: serviceapi.GatewayParentRef{Name: "gw"}}
	})
	networkPolicy := with(func(t Target) {
		t.Spec.NetworkPolicy = &serviceapi.NetworkPolicySpec{Ingress: []serviceapi.NetworkPolicyIngressSource{{
			NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": "gateway"}}}}}
	})
	spread := func(obj T) {
		k.Target(obj).Deployment().TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{
			MaxSkew: 1, TopologyKey: "kubernetes.io/hostname", WhenUnsatisfiable: corev1.ScheduleAnyway,
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{
				"app.kubernetes.io/name": k.Service, "app.kubernetes.io/instance": obj.GetName()}}}}
	}
	return []Missing[T]{
		{Drop: []string{"spec", "openStackRelease"}},
		{Drop: []string{"spec", "keystoneEndpoint"}},
		{Drop: []string{"spec", "image"}},
		{Drop: []string{"spec", "image", "repository"}},
		{Drop: []string{"spec", "database"}},
		{Drop: []string{"spec", "database", "database"}},
		{Drop: []string{"spec", "database", "secretRef"}},
		{Drop: []string{"spec", "database", "secretRef", "name"}},
		{Drop: []string{"spec", "database", "clusterRef", "name"}},
		{Drop: []string{"spec", "database", "tls", "caBundleSecretRef", "name"}, With: with(func(t Target) {
			t.Spec.Database.TLS = &serviceapi.DatabaseTLS{Mode: serviceapi.TLSVerifyCA, CABundleSecretRef: &serviceapi.SecretKeyRef{Name: "db-ca"}}
		})},
		{Drop: []string{"spec", "cache"}},
		{Drop: []string{"spec", "cache", "clusterRef", "name"}},
		{Drop: []string{"spec", "serviceUser"}},
		{Drop: []string{"spec", "serviceUser", "secretRef"}},
		{Drop: []string{"spec", "serviceUser", "secretRef", "name"}},
		{Drop: []string{"spec", "gateway", "hostname"}, With: gateway},
		{Drop: []string{"spec", "gateway", "parentRef"}, With: gateway},
		{Drop: []string{"spec", "gateway", "parentRef", "name"}, With: gateway},
		{Drop: []string{"spec", "secretStoreRef", "name"}, With: with(func(t Target) {
			t.Spec.SecretStoreRef = &serviceapi.SecretStoreRef{Kind: serviceapi.SecretStoreKind, Name: "vault"}
		})},
		{Drop: []string{"spec", "targetClusterRef", "name"}, With: with(func(t Target) {
			t.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "edge-a"}
		})},
		{Drop: []string{"spec", "policyOverrides", "configMapRef", "name"}, With: with(func(t Target) {
			t.Spec.PolicyOverrides = &serviceapi.PolicyOverrides{ConfigMapRef: &serviceapi.LocalObjectRef{Name: "policy"}}
		})},
		{Drop: []string{"spec", "autoscaling", "maxReplicas"}, With: with(func(t Target) {
			t.Spec.Autoscaling = &serviceapi.AutoscalingSpec{MaxReplicas: 5, TargetCPUUtilization: new(int32(80))}
		})},
		{Drop: []string{"spec", "networkPolicy", "ingress"}, With: networkPolicy},
		{Drop: []string{"spec", "networkPolicy", "ingress", "0", "namespaceSelector"}, With: networkPolicy},
		{Drop: []string{"spec", "deployment", "topologySpreadConstraints", "0", "topologyKey"}, With: spread},
		{Drop: []string{"spec", "deployment", "topologySpreadConstraints", "0", "whenUnsatisfiable"}, With: spread},
		{Drop: []string{"spec", "deployment", "topologySpreadConstraints", "0", "maxSkew"}, With: spread},
		{Drop: []string{"spec"}, Want: []string{"spec.cache", "spec.database", "spec.image",
			"spec.keystoneEndpoint", "spec.openStackRelease", "spec.serviceUser"}},
	}
}

// RefusesMissing wants each manifest refused as the field missing, never as
// an empty value failing its pattern: the defaulting webhook re-encodes the
// object and must not put the field back as "" or {}.
func (k Kind[T]) RefusesMissing(t *testing.T, s *Suite, prefix string, cases []Missing[T]) {
	t.Helper()
	for i, tc := range cases {
		want := tc.Want
		if want == nil {
			want = []string{FieldPath(tc.Drop)}
		}
		t.Run(FieldPath(tc.Drop), func(t *testing.T) {
			obj := k.New(fmt.Sprintf("%s-%02d", prefix, i))
			if tc.With != nil {
				tc.With(obj)
			}
			manifest := k.Manifest(t, obj)
			DropField(t, manifest.Object, tc.Drop)
			CheckMissing(t, s.Client.Create(context.Background(), manifest), want)
		})
	}
}

// Manifest is obj as the JSON map a user's manifest decodes to.
func (k Kind[T]) Manifest(t *testing.T, obj T) *unstructured.Unstructured {
	t.Helper()
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	u := &unstructured.Unstructured{}
	if err := json.Unmarshal(raw, &u.Object); err != nil {
		t.Fatal(err)
	}
	u.SetGroupVersionKind(k.GVK)
	return u
}

// FieldPath spells path as the API server names a field: spec.a[0].b.
func FieldPath(path []string) string {
	var b strings.Builder
	for i, k := range path {
		switch _, err := strconv.Atoi(k); {
		case err == nil:
			b.WriteString("[" + k + "]")
		case i > 0:
			b.WriteString("." + k)
		default:
			b.WriteString(k)
		}
	}
	return b.String()
}

// DropField removes the field at path; a numeric element indexes a list.
func DropField(t *testing.T, obj map[string]any, path []string) {
	t.Helper()
	var cur any = obj
	for _, k := range path[:len(path)-1] {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i >= len(c) {
				t.Fatalf("no item %s in %v", k, path)
			}
			cur = c[i]
		}
	}
	m, ok := cur.(map[string]any)
	if _, present := m[path[len(path)-1]]; !ok || !present {
		t.Fatalf("manifest has no %v to drop", path)
	}
	delete(m, path[len(path)-1])
}

// CheckMissing wants a 422 whose every cause is one of the fields, reported
// as a missing value; no cause may be a pattern or value check on "". The API
// server's note that it skipped the CEL rules of an invalid object is allowed.
func CheckMissing(t *testing.T, err error, fields []string) {
	t.Helper()
	if err == nil {
		t.Fatal("admitted")
	}
	var status apierrors.APIStatus
	if !errors.As(err, &status) || !apierrors.IsInvalid(err) {
		t.Fatalf("error is %v (reason %s), want Invalid", err, apierrors.ReasonForError(err))
	}
	msg := err.Error()
	for _, f := range fields {
		if !strings.Contains(msg, f+": Required value") {
			t.Errorf("error does not report %s as a Required value: %v", f, msg)
		}
	}
	for _, bad := range []string{"should match", "pattern", `Invalid value: ""`} {
		if strings.Contains(msg, bad) {
			t.Errorf("error contains %q: %v", bad, msg)
		}
	}
	var got []string
	for _, c := range status.Status().Details.Causes {
		if strings.Contains(c.Message, "some validation rules were not checked") {
			continue
		}
		got = append(got, fmt.Sprintf("%s %s", c.Type, c.Field))
	}
	var want []string
	for _, f := range fields {
		want = append(want, fmt.Sprintf("%s %s", metav1.CauseTypeFieldValueRequired, f))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("causes = %q, want %q\n%v", got, want, msg)
	}
}
