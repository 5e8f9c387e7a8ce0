package bootstrap

import (
	"fmt"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The Secret informers follow every object kind of the operator's group:
// not its lists, not the option kinds AddToGroupVersion registers, not other
// groups' kinds.
func TestOwnKinds(t *testing.T) {
	gv := schema.GroupVersion{Group: "test.openstack.c5c3.io", Version: "v1alpha1"}
	s := runtime.NewScheme()
	s.AddKnownTypes(gv, &corev1.Secret{}, &corev1.SecretList{}, &corev1.ConfigMap{}, &corev1.ConfigMapList{})
	metav1.AddToGroupVersion(s, gv)
	s.AddKnownTypes(corev1.SchemeGroupVersion, &corev1.Pod{})
	var got []string
	for _, o := range ownKinds(s, gv.Group) {
		got = append(got, fmt.Sprintf("%T", o))
	}
	if want := []string{"*v1.ConfigMap", "*v1.Secret"}; !slices.Equal(got, want) {
		t.Errorf("own kinds %v, want %v", got, want)
	}
}
