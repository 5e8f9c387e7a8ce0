package render

import (
	"math"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
)

// MaxUserConnections sizes the SQL user's max_user_connections from the
// CR's own topology: (pods + 1) × processes × threads + 2, where pods is
// spec.autoscaling.maxReplicas when an HPA owns the replica count, else the
// effective replicas, and processes and threads are the effective uWSGI
// values (2 and 1 when unset or non-positive). The extra pod covers the
// rollout surge, the 2 the db-sync and db-clean Jobs. Defaults give 10; the
// result saturates at MaxInt32.
func MaxUserConnections(b *barbicanv1.Barbican) int32 {
	pods := b.Spec.Deployment.EffectiveReplicas()
	if a := b.Spec.Autoscaling; a != nil && a.MaxReplicas > 0 {
		pods = a.MaxReplicas
	}
	u := uwsgiSpec(b)
	n := satMul(satMul(int64(pods)+1, int64(u.EffectiveProcesses())), int64(u.EffectiveThreads())) + 2
	return int32(min(n, math.MaxInt32))
}

// satMul multiplies non-negative factors, saturating above MaxInt32.
func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt32/a {
		return math.MaxInt32
	}
	return a * b
}
