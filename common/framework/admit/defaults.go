// Package admit is what the service operators' webhooks share: defaults
// and rules of serviceapi.ServiceSpec, the PriorityClass lookup, the extraConfig
// check and the answer (one 422 Invalid; terminating objects pass unchecked).
package admit

import (
	"reflect"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// ServiceDefaults are one operator's values of the shared webhook defaults.
type ServiceDefaults struct {
	// Service is the OpenStack service name, the default serviceUser.username.
	Service string
	// Resources fill deployment.resources when both of its maps are empty.
	Resources corev1.ResourceRequirements
}

// Resources is requests and limits of cpu and memory, e.g. ("100m", "512Mi", "500m", "1Gi").
func Resources(reqCPU, reqMem, limCPU, limMem string) corev1.ResourceRequirements {
	return corev1.ResourceRequirements{
		Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(reqCPU), corev1.ResourceMemory: resource.MustParse(reqMem)},
		Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(limCPU), corev1.ResourceMemory: resource.MustParse(limMem)},
	}
}

// Apply fills unset fields only: resources, replicas, cache backend, logging,
// service-user identity and key, and the leaves of a written uwsgi block (nil
// when absent). The rest resolves at render time, so it follows upgrades.
func (d ServiceDefaults) Apply(s *serviceapi.ServiceSpec, uwsgi *serviceapi.UWSGISpec) {
	if s.Deployment == nil {
		s.Deployment = &serviceapi.DeploymentSpec{}
	}
	if r := &s.Deployment.Resources; len(r.Requests) == 0 && len(r.Limits) == 0 {
		r.Requests = d.Resources.Requests.DeepCopy()
		r.Limits = d.Resources.Limits.DeepCopy()
	}
	if s.Deployment.Replicas == 0 {
		s.Deployment.Replicas = serviceapi.DefaultReplicas
	}
	// Cache and service-user defaults go only into blocks the user wrote: a
	// required block left out stays out, so the schema reports it as missing.
	if !reflect.ValueOf(s.Cache).IsZero() && s.Cache.Backend == "" {
		s.Cache.Backend = serviceapi.DefaultCacheBackend
	}
	defaultLogging(s)
	if u := &s.ServiceUser; *u != (serviceapi.ServiceUserSpec{}) {
		setIfEmpty(&u.Username, d.Service)
		setIfEmpty(&u.ProjectName, "service")
		setIfEmpty(&u.UserDomainName, "Default")
		setIfEmpty(&u.ProjectDomainName, "Default")
		if u.SecretRef != (serviceapi.SecretKeyRef{}) {
			setIfEmpty(&u.SecretRef.Key, serviceapi.DefaultPasswordKey)
		}
	}
	if uwsgi != nil {
		if uwsgi.Processes == 0 {
			uwsgi.Processes = serviceapi.DefaultUWSGIProcesses
		}
		if uwsgi.Threads == 0 {
			uwsgi.Threads = serviceapi.DefaultUWSGIThreads
		}
		if uwsgi.HTTPKeepAlive == nil {
			uwsgi.HTTPKeepAlive = new(true)
		}
	}
}

// defaultLogging materialises the whole logging block: text, INFO, no debug.
func defaultLogging(s *serviceapi.ServiceSpec) {
	if s.Logging == nil {
		s.Logging = &serviceapi.LoggingSpec{}
	}
	setIfEmpty(&s.Logging.Format, serviceapi.LogFormatText)
	setIfEmpty(&s.Logging.Level, "INFO")
	if s.Logging.Debug == nil {
		s.Logging.Debug = new(false)
	}
}

func setIfEmpty(v *string, def string) {
	if *v == "" {
		*v = def
	}
}
