package managerconfig

import (
	"fmt"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// WorkloadKinds are the owned kinds labelled managed-by=<operator> that
// every service operator writes, plus extra (Glance's CronJob): the
// controller Owns each.
func WorkloadKinds(extra ...client.Object) []client.Object {
	return append([]client.Object{
		&appsv1.Deployment{}, &corev1.Service{}, &corev1.ConfigMap{}, &batchv1.Job{},
		&policyv1.PodDisruptionBudget{}, &autoscalingv2.HorizontalPodAutoscaler{}, &networkingv1.NetworkPolicy{},
	}, extra...)
}

// FilteredKinds are the kinds whose informers hold only objects labelled
// managed-by=<operator>: every kind an operator may own but Secrets, whose
// metadata informer must see unlabelled referenced Secrets. A filter costs
// nothing for a kind no controller watches.
func FilteredKinds() []client.Object {
	return WorkloadKinds(&batchv1.CronJob{})
}

// MariaDBKinds are the mariadb-operator CRs provisioned per service CR.
func MariaDBKinds() []client.Object {
	return []client.Object{&mariadbv1alpha1.Database{}, &mariadbv1alpha1.User{}, &mariadbv1alpha1.Grant{}}
}

// ProjectedKinds are every kind a service CR may create on a target cluster:
// the owned workload kinds, Secrets, HTTPRoutes and the MariaDB CRs; the
// remote-children finalizer deletes them.
func ProjectedKinds(s *runtime.Scheme, owned []client.Object) ([]schema.GroupVersionKind, error) {
	objs := append(append([]client.Object{}, owned...), &corev1.Secret{}, &gatewayv1.HTTPRoute{})
	objs = append(objs, MariaDBKinds()...)
	out := make([]schema.GroupVersionKind, 0, len(objs))
	for _, o := range objs {
		gvk, err := apiutil.GVKForObject(o, s)
		if err != nil {
			return nil, fmt.Errorf("projected kind %T: %w", o, err)
		}
		out = append(out, gvk)
	}
	return out, nil
}
