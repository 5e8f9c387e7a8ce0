package configartifact

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"

	"github.com/c5c3/openstack-operators/common/framework/apply"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
)

func TestHash(t *testing.T) {
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	tests := []struct {
		name string
		data map[string]string
		want string
	}{
		{name: "empty", data: nil, want: sum("")},
		{name: "one key", data: map[string]string{"a": "b"}, want: sum("1:a=1:b\n")},
		{name: "keys sorted", data: map[string]string{"z": "1", "a": "22"}, want: sum("1:a=2:22\n1:z=1:1\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Hash(tt.data); got != tt.want {
				t.Errorf("Hash() = %s, want %s", got, tt.want)
			}
		})
	}
}

func TestHashStableAndCollisionResistant(t *testing.T) {
	a := map[string]string{"placement.conf": "[DEFAULT]\n", "policy.yaml": "{}", "logging.conf": "x"}
	b := map[string]string{}
	for _, k := range []string{"logging.conf", "policy.yaml", "placement.conf"} {
		b[k] = a[k]
	}
	for range 20 {
		if Hash(a) != Hash(b) {
			t.Fatal("Hash differs for equal maps")
		}
	}
	pairs := [][2]map[string]string{
		{{"a": "bc"}, {"ab": "c"}},
		{{"a": "b\n1:c=1:d"}, {"a": "b", "c": "d"}},
		{{"a": ""}, {}},
		{{"a=": "b"}, {"a": "=b"}},
	}
	for _, p := range pairs {
		if Hash(p[0]) == Hash(p[1]) {
			t.Errorf("Hash(%v) == Hash(%v)", p[0], p[1])
		}
	}
}

func TestName(t *testing.T) {
	data := map[string]string{"a": "bc"}
	got := Name("placement-config", data)
	if !regexp.MustCompile(`^placement-config-[0-9a-f]{8}$`).MatchString(got) {
		t.Fatalf("Name() = %q, want base-8hex", got)
	}
	if got != "placement-config-"+Hash(data)[:8] {
		t.Errorf("Name() = %q, want the first 8 hex of Hash", got)
	}
	if got == Name("placement-config", map[string]string{"ab": "c"}) {
		t.Error("different data gives the same name")
	}
}

func TestBuildConfigMap(t *testing.T) {
	data := map[string]string{"placement.conf": "[DEFAULT]\n"}
	cm := BuildConfigMap("openstack", "p-config", map[string]string{"app.kubernetes.io/name": "placement"}, data)
	if cm.Name != Name("p-config", data) || cm.Namespace != "openstack" {
		t.Errorf("name/namespace = %s/%s", cm.Namespace, cm.Name)
	}
	if cm.Immutable == nil || !*cm.Immutable {
		t.Error("ConfigMap is not immutable")
	}
	want := map[string]string{BaseLabel: "p-config", "app.kubernetes.io/name": "placement"}
	if len(cm.Labels) != len(want) {
		t.Errorf("labels = %v, want %v", cm.Labels, want)
	}
	for k, v := range want {
		if cm.Labels[k] != v {
			t.Errorf("label %s = %q, want %q", k, cm.Labels[k], v)
		}
	}
	if cm.Data["placement.conf"] != "[DEFAULT]\n" || len(cm.Data) != 1 {
		t.Errorf("data = %v", cm.Data)
	}
}

const ownerUID = types.UID("owner-uid")

func localOwner() apply.Owner {
	owner := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "openstack", UID: ownerUID}}
	return apply.Owner{Object: owner, Kind: "PlacementAPI"}
}

func remoteOwner() apply.Owner {
	o := localOwner()
	o.Remote = true
	return o
}

type child struct {
	name     string
	age      time.Duration // before base time
	owned    string        // "ref", "labels", "other-ref", "non-controller-ref", ""
	deleting bool
}

var baseTime = time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)

func (c child) object() *corev1.ConfigMap {
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{
		Name: c.name, Namespace: "openstack",
		CreationTimestamp: metav1.NewTime(baseTime.Add(-c.age)),
		Labels:            map[string]string{BaseLabel: "p-config"},
	}}
	yes, no := true, false
	switch c.owned {
	case "ref":
		cm.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "p", UID: ownerUID, Controller: &yes}}
	case "other-ref":
		cm.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "p", UID: "someone-else", Controller: &yes}}
	case "non-controller-ref":
		cm.OwnerReferences = []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: "p", UID: ownerUID, Controller: &no}}
	case "labels":
		for k, v := range targetcluster.OwnerLabels("PlacementAPI", "p", "openstack") {
			cm.Labels[k] = v
		}
	case "other-labels":
		for k, v := range targetcluster.OwnerLabels("PlacementAPI", "other", "openstack") {
			cm.Labels[k] = v
		}
	}
	if c.deleting {
		now := metav1.NewTime(baseTime)
		cm.DeletionTimestamp = &now
		cm.Finalizers = []string{"test/hold"}
	}
	return cm
}

func TestExpired(t *testing.T) {
	tests := []struct {
		name     string
		owner    apply.Owner
		children []child
		current  string
		want     []string
	}{
		{
			name:     "fewer than Keep",
			owner:    localOwner(),
			children: []child{{name: "c-cur", owned: "ref"}, {name: "c-1", age: time.Hour, owned: "ref"}, {name: "c-2", age: 2 * time.Hour, owned: "ref"}},
			current:  "c-cur",
		},
		{
			name:  "keeps current plus the two newest, newest first by creationTimestamp",
			owner: localOwner(),
			children: []child{
				{name: "c-4", age: 4 * time.Hour, owned: "ref"},
				{name: "c-1", age: 1 * time.Hour, owned: "ref"},
				{name: "c-cur", age: 10 * time.Hour, owned: "ref"},
				{name: "c-3", age: 3 * time.Hour, owned: "ref"},
				{name: "c-2", age: 2 * time.Hour, owned: "ref"},
			},
			current: "c-cur",
			want:    []string{"c-3", "c-4"},
		},
		{
			name:  "current not listed yet still counts",
			owner: localOwner(),
			children: []child{
				{name: "c-1", age: 1 * time.Hour, owned: "ref"},
				{name: "c-2", age: 2 * time.Hour, owned: "ref"},
				{name: "c-3", age: 3 * time.Hour, owned: "ref"},
			},
			current: "c-new",
			want:    []string{"c-3"},
		},
		{
			name:  "ties ordered by name descending",
			owner: localOwner(),
			children: []child{
				{name: "c-cur", owned: "ref"},
				{name: "c-a", age: time.Hour, owned: "ref"},
				{name: "c-c", age: time.Hour, owned: "ref"},
				{name: "c-b", age: time.Hour, owned: "ref"},
				{name: "c-d", age: time.Hour, owned: "ref"},
			},
			current: "c-cur",
			want:    []string{"c-b", "c-a"},
		},
		{
			name:  "skips non-owned and deleting objects",
			owner: localOwner(),
			children: []child{
				{name: "c-cur", owned: "ref"},
				{name: "c-1", age: 1 * time.Hour, owned: "ref"},
				{name: "c-foreign", age: 90 * time.Minute, owned: "other-ref"},
				{name: "c-noncontroller", age: 100 * time.Minute, owned: "non-controller-ref"},
				{name: "c-unlabelled", age: 110 * time.Minute},
				{name: "c-2", age: 2 * time.Hour, owned: "ref"},
				{name: "c-deleting", age: 150 * time.Minute, owned: "ref", deleting: true},
				{name: "c-3", age: 3 * time.Hour, owned: "ref"},
			},
			current: "c-cur",
			want:    []string{"c-3"},
		},
		{
			name:  "remote owner recognises ownership labels",
			owner: remoteOwner(),
			children: []child{
				{name: "c-cur", owned: "labels"},
				{name: "c-1", age: 1 * time.Hour, owned: "labels"},
				{name: "c-other", age: 90 * time.Minute, owned: "other-labels"},
				{name: "c-2", age: 2 * time.Hour, owned: "labels"},
				{name: "c-3", age: 3 * time.Hour, owned: "labels"},
				{name: "c-4", age: 4 * time.Hour, owned: "labels"},
			},
			current: "c-cur",
			want:    []string{"c-3", "c-4"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var items []metav1.Object
			for _, c := range tt.children {
				items = append(items, c.object())
			}
			var got []string
			for _, o := range Expired(items, tt.owner, tt.current) {
				got = append(got, o.GetName())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("Expired() = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestPruneConfigMaps_FakeClient(t *testing.T) {
	var objs []client.Object
	for _, c := range []child{
		{name: "c-cur", owned: "ref"},
		{name: "c-1", age: 1 * time.Hour, owned: "ref"},
		{name: "c-2", age: 2 * time.Hour, owned: "ref"},
		{name: "c-3", age: 3 * time.Hour, owned: "ref"},
		{name: "c-foreign", age: 4 * time.Hour, owned: "other-ref"},
	} {
		objs = append(objs, c.object())
	}
	other := child{name: "x-old", age: 9 * time.Hour, owned: "ref"}.object()
	other.Labels[BaseLabel] = "other-base"
	objs = append(objs, other)

	s := runtime.NewScheme()
	if err := corev1.AddToScheme(s); err != nil {
		t.Fatal(err)
	}
	c := fake.NewClientBuilder().WithScheme(s).WithObjects(objs...).Build()
	if err := PruneConfigMaps(context.Background(), c, localOwner(), "openstack", "p-config", "c-cur"); err != nil {
		t.Fatal(err)
	}
	var list corev1.ConfigMapList
	if err := c.List(context.Background(), &list); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, cm := range list.Items {
		got = append(got, cm.Name)
	}
	slices.Sort(got)
	want := []string{"c-1", "c-2", "c-cur", "c-foreign", "x-old"}
	if !slices.Equal(got, want) {
		t.Errorf("remaining ConfigMaps = %v, want %v", got, want)
	}
}
