package validation

import (
	"fmt"
	"maps"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// Deployment checks replicas, grace, preStop, strategy and requests <= limits.
func Deployment(p *field.Path, d *serviceapi.DeploymentSpec) field.ErrorList {
	if d == nil {
		return nil
	}
	var errs field.ErrorList
	if d.Replicas < 0 {
		errs = append(errs, field.Invalid(p.Child("replicas"), d.Replicas, "must be at least 1"))
	}
	if g := d.TerminationGracePeriodSeconds; g != nil && *g < 10 {
		errs = append(errs, field.Invalid(p.Child("terminationGracePeriodSeconds"), *g, "must be at least 10"))
	}
	if s := d.PreStopSleepSeconds; s != nil && *s < 0 {
		errs = append(errs, field.Invalid(p.Child("preStopSleepSeconds"), *s, "must not be negative"))
	}
	if pre, grace := d.EffectivePreStop(), d.EffectiveGrace(); pre >= grace {
		errs = append(errs, field.Invalid(p.Child("preStopSleepSeconds"), pre,
			fmt.Sprintf("preStop sleep (%d s) must be less than the termination grace period (%d s)", pre, grace)))
	}
	if s := d.Strategy; s != nil && s.Type == appsv1.RecreateDeploymentStrategyType && s.RollingUpdate != nil {
		errs = append(errs, field.Forbidden(p.Child("strategy", "rollingUpdate"), "may not be set when strategy type is Recreate"))
	}
	for _, res := range sortedKeys(d.Resources.Requests) {
		req := d.Resources.Requests[res]
		if lim, ok := d.Resources.Limits[res]; ok && req.Cmp(lim) > 0 {
			errs = append(errs, field.Invalid(p.Child("resources", "requests").Key(string(res)), req.String(),
				fmt.Sprintf("%s request must not exceed limit", res)))
		}
	}
	return errs
}

// Harakiri must end before the pod is killed: below grace - preStop.
func Harakiri(p *field.Path, u *serviceapi.UWSGISpec, d *serviceapi.DeploymentSpec) field.ErrorList {
	if u == nil || u.Harakiri == nil {
		return nil
	}
	window := d.EffectiveGrace() - d.EffectivePreStop()
	if int64(*u.Harakiri) >= window {
		return field.ErrorList{field.Invalid(p, *u.Harakiri,
			fmt.Sprintf("must be less than the drain window (terminationGracePeriodSeconds - preStopSleepSeconds = %d s)", window))}
	}
	return nil
}

// UWSGI refuses a keep-alive timeout with keep-alive off.
func UWSGI(p *field.Path, u *serviceapi.UWSGISpec) field.ErrorList {
	if u != nil && u.HTTPKeepAliveTimeout != nil && u.HTTPKeepAlive != nil && !*u.HTTPKeepAlive {
		return field.ErrorList{field.Forbidden(p.Child("httpKeepAliveTimeout"), "may not be set when httpKeepAlive is false")}
	}
	return nil
}

// Autoscaling checks targets, bounds and the implicit minReplicas.
func Autoscaling(p *field.Path, a *serviceapi.AutoscalingSpec, replicas int32) field.ErrorList {
	if a == nil {
		return nil
	}
	var errs field.ErrorList
	if a.TargetCPUUtilization == nil && a.TargetMemoryUtilization == nil {
		errs = append(errs, field.Required(p, "at least one of targetCPUUtilization or targetMemoryUtilization is required"))
	}
	// A slice, not a map: the errors must come out in a stable order.
	for _, tg := range []struct {
		name string
		v    *int32
	}{{"targetCPUUtilization", a.TargetCPUUtilization}, {"targetMemoryUtilization", a.TargetMemoryUtilization}} {
		if tg.v != nil && (*tg.v < 1 || *tg.v > 100) {
			errs = append(errs, field.Invalid(p.Child(tg.name), *tg.v, "must be between 1 and 100"))
		}
	}
	switch {
	case a.MinReplicas != nil && *a.MinReplicas > a.MaxReplicas:
		errs = append(errs, field.Invalid(p.Child("minReplicas"), *a.MinReplicas, "must not exceed maxReplicas"))
	case a.MinReplicas == nil && replicas > a.MaxReplicas:
		errs = append(errs, field.Invalid(p.Child("maxReplicas"), a.MaxReplicas,
			fmt.Sprintf("minReplicas defaults to deployment.replicas (%d), which exceeds maxReplicas", replicas)))
	}
	return errs
}

// SpreadConstraints requires maxSkew, topologyKey and a known whenUnsatisfiable.
// The upstream type has no omitempty, so the defaulting webhook's re-encoding
// turns a missing field into a zero value the schema accepts.
func SpreadConstraints(p *field.Path, d *serviceapi.DeploymentSpec) field.ErrorList {
	if d == nil {
		return nil
	}
	var errs field.ErrorList
	for i, c := range d.TopologySpreadConstraints {
		ip := p.Index(i)
		switch {
		case c.MaxSkew == 0:
			errs = append(errs, field.Required(ip.Child("maxSkew"), ""))
		case c.MaxSkew < 0:
			errs = append(errs, field.Invalid(ip.Child("maxSkew"), c.MaxSkew, "must be at least 1"))
		}
		if c.TopologyKey == "" {
			errs = append(errs, field.Required(ip.Child("topologyKey"), ""))
		}
		switch c.WhenUnsatisfiable {
		case corev1.DoNotSchedule, corev1.ScheduleAnyway:
		case "":
			errs = append(errs, field.Required(ip.Child("whenUnsatisfiable"), ""))
		default:
			errs = append(errs, field.NotSupported(ip.Child("whenUnsatisfiable"), c.WhenUnsatisfiable,
				[]corev1.UnsatisfiableConstraintAction{corev1.DoNotSchedule, corev1.ScheduleAnyway}))
		}
	}
	return errs
}

// SpreadSelectors require each constraint to select exactly the instance's pods.
// The refusal shows the expected and the given selector in YAML flow style.
func SpreadSelectors(p *field.Path, d *serviceapi.DeploymentSpec, want map[string]string) field.ErrorList {
	if d == nil {
		return nil
	}
	var errs field.ErrorList
	for i, c := range d.TopologySpreadConstraints {
		ls := c.LabelSelector
		if ls != nil && len(ls.MatchExpressions) == 0 && maps.Equal(ls.MatchLabels, want) {
			continue
		}
		errs = append(errs, field.Invalid(p.Index(i).Child("labelSelector"), field.OmitValueType{},
			fmt.Sprintf("must be exactly matchLabels %s with no matchExpressions; got %s", flowMap(want), describeSelector(ls))))
	}
	return errs
}

func sortedKeys[K ~string, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
