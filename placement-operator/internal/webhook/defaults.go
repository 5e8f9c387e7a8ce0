// Package webhook defaults and validates Placement objects at admission.
package webhook

import (
	"context"
	"reflect"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/c5c3/openstack-operators/common/api/shared"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// +kubebuilder:webhook:path=/mutate-placement-openstack-c5c3-io-v1alpha1-placement,mutating=true,failurePolicy=fail,sideEffects=None,groups=placement.openstack.c5c3.io,resources=placements,verbs=create;update,versions=v1alpha1,name=mplacement.openstack.c5c3.io,admissionReviewVersions=v1

// Defaulter fills unset fields; it never overwrites a set value.
type Defaulter struct{}

// Default applies, in order: resources, replicas, cache backend, logging,
// service-user identity and key, then uwsgi leaves when the block is present.
func (Defaulter) Default(_ context.Context, p *placementv1.Placement) error {
	Apply(p)
	return nil
}

// Apply is the defaulting itself, shared by the webhook and tests.
func Apply(p *placementv1.Placement) {
	s := &p.Spec
	if s.Deployment == nil {
		s.Deployment = &shared.DeploymentSpec{}
	}
	if r := &s.Deployment.Resources; len(r.Requests) == 0 && len(r.Limits) == 0 {
		r.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("512Mi")}
		r.Limits = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("1Gi")}
	}
	if s.Deployment.Replicas == 0 {
		s.Deployment.Replicas = shared.DefaultReplicas
	}
	// Cache and service-user defaults go only into blocks the user wrote: a
	// required block left out stays out, so the schema reports it as missing.
	if !reflect.ValueOf(s.Cache).IsZero() && s.Cache.Backend == "" {
		s.Cache.Backend = shared.DefaultCacheBackend
	}
	if s.Logging == nil {
		s.Logging = &shared.LoggingSpec{}
	}
	if s.Logging.Format == "" {
		s.Logging.Format = shared.LogFormatText
	}
	if s.Logging.Level == "" {
		s.Logging.Level = "INFO"
	}
	if s.Logging.Debug == nil {
		s.Logging.Debug = new(bool)
	}
	if u := &s.ServiceUser; *u != (shared.ServiceUserSpec{}) {
		setIfEmpty(&u.Username, placementv1.ServiceName)
		setIfEmpty(&u.ProjectName, "service")
		setIfEmpty(&u.UserDomainName, "Default")
		setIfEmpty(&u.ProjectDomainName, "Default")
		if u.SecretRef != (shared.SecretKeyRef{}) {
			setIfEmpty(&u.SecretRef.Key, shared.DefaultPasswordKey)
		}
	}
	if s.APIServer != nil && s.APIServer.UWSGI != nil {
		w := s.APIServer.UWSGI
		if w.Processes == 0 {
			w.Processes = shared.DefaultUWSGIProcesses
		}
		if w.Threads == 0 {
			w.Threads = shared.DefaultUWSGIThreads
		}
		if w.HTTPKeepAlive == nil {
			on := true
			w.HTTPKeepAlive = &on
		}
	}
}

func setIfEmpty(v *string, def string) {
	if *v == "" {
		*v = def
	}
}
