package secrets

import (
	"context"
	"errors"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

const ns = "openstack"

func TestDigest(t *testing.T) {
	tests := []struct {
		name  string
		value []byte
		want  string
	}{
		{name: "nil", value: nil, want: ""},
		{name: "empty", value: []byte{}, want: ""},
		{name: "abc vector", value: []byte("abc"), want: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Digest(tt.value); got != tt.want {
				t.Errorf("Digest(%q) = %q, want %q", tt.value, got, tt.want)
			}
		})
	}
}

// esoScheme registers core/v1 and the ESO kinds as unstructured.
func esoScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	for _, gvk := range []schema.GroupVersionKind{ClusterSecretStoreGVK, SecretStoreGVK, ExternalSecretGVK} {
		s.AddKnownTypeWithName(gvk, &unstructured.Unstructured{})
		s.AddKnownTypeWithName(gvk.GroupVersion().WithKind(gvk.Kind+"List"), &unstructured.UnstructuredList{})
	}
	metav1.AddToGroupVersion(s, ESOGroupVersion)
	return s
}

// esoObject builds an ESO object; ready "" leaves status without conditions.
func esoObject(gvk schema.GroupVersionKind, namespace, name, ready, msg string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(gvk)
	u.SetNamespace(namespace)
	u.SetName(name)
	if ready != "" {
		u.Object["status"] = map[string]any{"conditions": []any{
			map[string]any{"type": "Other", "status": "True"},
			map[string]any{"type": "Ready", "status": ready, "message": msg},
		}}
	}
	return u
}

func TestStoreReady_FakeClient(t *testing.T) {
	tests := []struct {
		name      string
		objs      []client.Object
		ref       *serviceapi.SecretStoreRef
		wantReady bool
		wantMsg   string
	}{
		{
			name:      "default store when ref nil, Ready",
			objs:      []client.Object{esoObject(ClusterSecretStoreGVK, "", serviceapi.DefaultSecretStoreName, "True", "")},
			wantReady: true,
		},
		{
			name:    "default store when ref nil, not found",
			objs:    []client.Object{esoObject(ClusterSecretStoreGVK, "", "other", "True", "")},
			wantMsg: "ClusterSecretStore openbao-cluster-store not found",
		},
		{
			name:      "empty kind means ClusterSecretStore",
			objs:      []client.Object{esoObject(ClusterSecretStoreGVK, "", "vault", "True", "")},
			ref:       &serviceapi.SecretStoreRef{Name: "vault"},
			wantReady: true,
		},
		{
			name:      "SecretStore looked up in the namespace",
			objs:      []client.Object{esoObject(SecretStoreGVK, ns, "local", "True", "")},
			ref:       &serviceapi.SecretStoreRef{Kind: serviceapi.SecretStoreKind, Name: "local"},
			wantReady: true,
		},
		{
			name: "SecretStore in another namespace or same-named ClusterSecretStore is not found",
			objs: []client.Object{
				esoObject(SecretStoreGVK, "elsewhere", "local", "True", ""),
				esoObject(ClusterSecretStoreGVK, "", "local", "True", ""),
			},
			ref:     &serviceapi.SecretStoreRef{Kind: serviceapi.SecretStoreKind, Name: "local"},
			wantMsg: "SecretStore local not found",
		},
		{
			name:    "Ready False",
			objs:    []client.Object{esoObject(ClusterSecretStoreGVK, "", serviceapi.DefaultSecretStoreName, "False", "could not authenticate")},
			wantMsg: "ClusterSecretStore openbao-cluster-store is not Ready: could not authenticate",
		},
		{
			name:    "no Ready condition",
			objs:    []client.Object{esoObject(ClusterSecretStoreGVK, "", serviceapi.DefaultSecretStoreName, "", "")},
			wantMsg: "ClusterSecretStore openbao-cluster-store is not Ready: no Ready condition",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fake.NewClientBuilder().WithScheme(esoScheme(t)).WithObjects(tt.objs...).Build()
			ready, msg, err := StoreReady(context.Background(), c, ns, tt.ref)
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if ready != tt.wantReady || msg != tt.wantMsg {
				t.Errorf("StoreReady() = %v, %q; want %v, %q", ready, msg, tt.wantReady, tt.wantMsg)
			}
		})
	}
}

func TestStoreReady_FakeClientReadError(t *testing.T) {
	boom := errors.New("apiserver down")
	c := fake.NewClientBuilder().WithScheme(esoScheme(t)).WithInterceptorFuncs(interceptor.Funcs{
		Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
			return boom
		},
	}).Build()
	ready, _, err := StoreReady(context.Background(), c, ns, nil)
	if ready || !errors.Is(err, boom) {
		t.Errorf("StoreReady() = %v, %v; want false and the read error", ready, err)
	}
}

func secret(name string, data map[string]string) *corev1.Secret {
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Data: map[string][]byte{}}
	for k, v := range data {
		s.Data[k] = []byte(v)
	}
	return s
}

func TestUsable_FakeClient(t *testing.T) {
	tests := []struct {
		name       string
		objs       []client.Object
		wantSecret bool
		wantMsg    string
	}{
		{
			name:       "usable",
			objs:       []client.Object{secret("db", map[string]string{"username": "u", "password": "p"})},
			wantSecret: true,
		},
		{
			name: "usable without consulting a failing ExternalSecret",
			objs: []client.Object{
				secret("db", map[string]string{"username": "u", "password": "p", "extra": "x"}),
				esoObject(ExternalSecretGVK, ns, "db", "False", "sync failed"),
			},
			wantSecret: true,
		},
		{
			name:    "Secret missing and no ExternalSecret",
			wantMsg: "Secret db not found and no ExternalSecret db",
		},
		{
			name:    "Secret missing, ExternalSecret in another namespace",
			objs:    []client.Object{esoObject(ExternalSecretGVK, "elsewhere", "db", "True", "")},
			wantMsg: "Secret db not found and no ExternalSecret db",
		},
		{
			name:    "Secret missing, ExternalSecret waiting",
			objs:    []client.Object{esoObject(ExternalSecretGVK, ns, "db", "False", "SecretSyncedError: path not found")},
			wantMsg: "Secret db not found; ExternalSecret db waiting to sync: SecretSyncedError: path not found",
		},
		{
			name:    "Secret missing, ExternalSecret without conditions",
			objs:    []client.Object{esoObject(ExternalSecretGVK, ns, "db", "", "")},
			wantMsg: "Secret db not found; ExternalSecret db waiting to sync: no Ready condition",
		},
		{
			name:    "one key missing",
			objs:    []client.Object{secret("db", map[string]string{"username": "u"})},
			wantMsg: "Secret db is missing keys: password",
		},
		{
			name:    "empty values count as missing, in key order",
			objs:    []client.Object{secret("db", map[string]string{"username": "", "password": ""}), esoObject(ExternalSecretGVK, ns, "db", "True", "")},
			wantMsg: "Secret db is missing keys: username, password",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := fake.NewClientBuilder().WithScheme(esoScheme(t)).WithObjects(tt.objs...).Build()
			s, msg, err := Usable(context.Background(), c, ns, "db", "username", "password")
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if (s != nil) != tt.wantSecret || msg != tt.wantMsg {
				t.Fatalf("Usable() = secret %v, %q; want secret %v, %q", s != nil, msg, tt.wantSecret, tt.wantMsg)
			}
			if s != nil && (string(s.Data["username"]) != "u" || string(s.Data["password"]) != "p") {
				t.Errorf("returned Secret data = %v", s.Data)
			}
		})
	}
}

func TestUsable_FakeClientReadError(t *testing.T) {
	boom := errors.New("apiserver down")
	c := fake.NewClientBuilder().WithScheme(esoScheme(t)).WithInterceptorFuncs(interceptor.Funcs{
		Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
			return boom
		},
	}).Build()
	s, _, err := Usable(context.Background(), c, ns, "db", "password")
	if s != nil || !errors.Is(err, boom) || !strings.Contains(err.Error(), "db") {
		t.Errorf("Usable() = %v, %v; want nil and a wrapped read error naming the Secret", s, err)
	}
}
