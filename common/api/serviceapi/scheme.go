package serviceapi

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// AddKnownTypes returns the function an API package's SchemeBuilder runs:
// it registers objs, and the meta kinds, under gv.
func AddKnownTypes(gv schema.GroupVersion, objs ...runtime.Object) func(*runtime.Scheme) error {
	return func(s *runtime.Scheme) error {
		s.AddKnownTypes(gv, objs...)
		metav1.AddToGroupVersion(s, gv)
		return nil
	}
}
