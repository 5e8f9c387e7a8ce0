package testenv

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
)

// CR is a minimal service CR implementing service.Object, for unit tests of
// the shared flows without a real operator API.
type CR struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              serviceapi.ServiceSpec   `json:"spec,omitempty"`
	Status            serviceapi.ServiceStatus `json:"status,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (c *CR) DeepCopyObject() runtime.Object {
	out := &CR{TypeMeta: c.TypeMeta, Spec: *c.Spec.DeepCopy(), Status: c.snapshot()}
	c.DeepCopyInto(&out.ObjectMeta)
	return out
}

func (c *CR) snapshot() serviceapi.ServiceStatus { return *c.Status.DeepCopy() }

// ServiceSpec implements service.Object.
func (c *CR) ServiceSpec() *serviceapi.ServiceSpec { return &c.Spec }

// ServiceStatus implements reconcile.Object.
func (c *CR) ServiceStatus() *serviceapi.ServiceStatus { return &c.Status }

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
	return managerconfig.NewScheme(func(s *runtime.Scheme) error {
		s.AddKnownTypes(gv, &CR{}, &CRList{})
		metav1.AddToGroupVersion(s, gv)
		return nil
	})
}

// ServiceSpec is the shared spec of a service CR with only the required
// fields, as a user writes it: release 2025.2, a tagged image under
// registry.example.org/openstack/<service>, the MariaDB "mariadb" with the
// schema <service> and Secret <service>-db, the memcached "memcached", and
// the service user's Secret <service>-service-user.
func ServiceSpec(service string) serviceapi.ServiceSpec {
	return serviceapi.ServiceSpec{
		OpenStackRelease: "2025.2",
		Image:            serviceapi.ImageSpec{Repository: "registry.example.org/openstack/" + service, Tag: "2025.2"},
		Database: serviceapi.DatabaseSpec{
			ClusterRef: &serviceapi.LocalObjectRef{Name: "mariadb"},
			Database:   service,
			SecretRef:  serviceapi.SecretKeyRef{Name: service + "-db"},
		},
		Cache:            serviceapi.CacheSpec{ClusterRef: &serviceapi.LocalObjectRef{Name: "memcached"}},
		KeystoneEndpoint: "http://keystone-api.openstack.svc:5000/v3",
		ServiceUser:      serviceapi.ServiceUserSpec{SecretRef: serviceapi.SecretKeyRef{Name: service + "-service-user"}},
	}
}

// WebhookFilled sets on a bare service spec what the defaulting webhook
// would fill that the controller tests rely on: a memcached cache with the
// default backend and the service user of service in the Default domains.
func WebhookFilled(s *serviceapi.ServiceSpec, service string) {
	s.Cache = serviceapi.CacheSpec{Servers: []string{"memcached:11211"}, Backend: serviceapi.DefaultCacheBackend}
	s.ServiceUser.Username, s.ServiceUser.ProjectName = service, "service"
	s.ServiceUser.UserDomainName, s.ServiceUser.ProjectDomainName = "Default", "Default"
}
