package testenv

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/c5c3/openstack-operators/common/operator"
)

// CRStatus is the status of CR.
type CRStatus struct {
	ObservedGeneration int64              `json:"observedGeneration,omitempty"`
	Conditions         []metav1.Condition `json:"conditions,omitempty"`
}

// CR is a minimal service CR implementing reconcile.Object, for unit tests of
// the shared flows without a real operator API.
type CR struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Status            CRStatus `json:"status,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (c *CR) DeepCopyObject() runtime.Object {
	out := &CR{TypeMeta: c.TypeMeta, Status: c.snapshot()}
	c.DeepCopyInto(&out.ObjectMeta)
	return out
}

func (c *CR) snapshot() CRStatus {
	return CRStatus{ObservedGeneration: c.Status.ObservedGeneration, Conditions: slices.Clone(c.Status.Conditions)}
}

// GetConditions implements reconcile.Object.
func (c *CR) GetConditions() *[]metav1.Condition { return &c.Status.Conditions }

// SetObservedGeneration implements reconcile.Object.
func (c *CR) SetObservedGeneration(g int64) { c.Status.ObservedGeneration = g }

// StatusSnapshot implements reconcile.Object.
func (c *CR) StatusSnapshot() any { return c.snapshot() }

// CRList lists CRs.
type CRList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []CR `json:"items"`
}

// DeepCopyObject implements runtime.Object.
func (l *CRList) DeepCopyObject() runtime.Object {
	out := &CRList{TypeMeta: l.TypeMeta}
	l.DeepCopyInto(&out.ListMeta)
	for i := range l.Items {
		out.Items = append(out.Items, *l.Items[i].DeepCopyObject().(*CR))
	}
	return out
}

// CRScheme is the operators' scheme plus CR and CRList under gv.
func CRScheme(gv schema.GroupVersion) *runtime.Scheme {
	return operator.NewScheme(func(s *runtime.Scheme) error {
		s.AddKnownTypes(gv, &CR{}, &CRList{})
		metav1.AddToGroupVersion(s, gv)
		return nil
	})
}
