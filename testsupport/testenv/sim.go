package testenv

import (
	"context"
	"fmt"
	"time"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/util/retry"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// The simulators below play the controllers envtest lacks (ESO,
// mariadb-operator, the Deployment and Job controllers, a Gateway): each
// writes only the status those controllers would write. Those that may
// race a controller under test over the same status read, change and
// write again when their write lost (retry.RetryOnConflict), as a
// controller does.

var esoGV = schema.GroupVersion{Group: "external-secrets.io", Version: "v1"}

// SecretStore creates (or updates) an ESO store with the fake provider and sets
// its Ready condition. namespace "" means a ClusterSecretStore.
func SecretStore(ctx context.Context, c client.Client, namespace, name string, ready bool) error {
	kind := "ClusterSecretStore"
	if namespace != "" {
		kind = "SecretStore"
	}
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		u := &unstructured.Unstructured{}
		u.SetGroupVersionKind(esoGV.WithKind(kind))
		u.SetNamespace(namespace)
		u.SetName(name)
		err := c.Get(ctx, client.ObjectKeyFromObject(u), u)
		if err != nil {
			if client.IgnoreNotFound(err) != nil {
				return err
			}
			u.Object["spec"] = map[string]any{"provider": map[string]any{"fake": map[string]any{"data": []any{}}}}
			if err := c.Create(ctx, u); err != nil {
				return fmt.Errorf("creating %s %s: %w", kind, name, err)
			}
		}
		status, reason := "False", "ValidationFailed"
		if ready {
			status, reason = "True", "Valid"
		}
		u.Object["status"] = map[string]any{"conditions": []any{map[string]any{
			"type": "Ready", "status": status, "reason": reason, "message": "set by the test simulator",
			"lastTransitionTime": time.Now().UTC().Format(time.RFC3339),
		}}}
		return c.Status().Update(ctx, u)
	})
}

func readyCondition(ready bool) metav1.Condition {
	c := metav1.Condition{Type: "Ready", Status: metav1.ConditionTrue, Reason: "Ready", Message: "set by the test simulator", LastTransitionTime: metav1.Now()}
	if !ready {
		c.Status, c.Reason = metav1.ConditionFalse, "NotReady"
	}
	return c
}

// MariaDB creates a MariaDB and sets its Ready condition.
func MariaDB(ctx context.Context, c client.Client, namespace, name string, ready bool) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		m := &mariadbv1alpha1.MariaDB{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}}
		if err := c.Get(ctx, client.ObjectKeyFromObject(m), m); err != nil {
			if client.IgnoreNotFound(err) != nil {
				return err
			}
			m.Spec.Storage = mariadbv1alpha1.Storage{Size: ptr.To(resource.MustParse("1Gi"))}
			if err := c.Create(ctx, m); err != nil {
				return fmt.Errorf("creating MariaDB %s: %w", name, err)
			}
		}
		meta.SetStatusCondition(&m.Status.Conditions, readyCondition(ready))
		return c.Status().Update(ctx, m)
	})
}

// SQLReady marks a Database, User or Grant Ready as mariadb-operator would.
func SQLReady(ctx context.Context, c client.Client, obj client.Object) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if err := c.Get(ctx, client.ObjectKeyFromObject(obj), obj); err != nil {
			return err
		}
		switch o := obj.(type) {
		case *mariadbv1alpha1.Database:
			meta.SetStatusCondition(&o.Status.Conditions, readyCondition(true))
		case *mariadbv1alpha1.User:
			meta.SetStatusCondition(&o.Status.Conditions, readyCondition(true))
		case *mariadbv1alpha1.Grant:
			meta.SetStatusCondition(&o.Status.Conditions, readyCondition(true))
		default:
			return fmt.Errorf("SQLReady: unsupported %T", obj)
		}
		return c.Status().Update(ctx, obj)
	})
}

// JobFinished sets a Job's terminal status the way the Job controller does.
func JobFinished(ctx context.Context, c client.Client, key client.ObjectKey, succeeded bool) error {
	var j batchv1.Job
	if err := c.Get(ctx, key, &j); err != nil {
		return err
	}
	now := metav1.Now()
	start := metav1.NewTime(now.Add(-2 * time.Second))
	j.Status.StartTime = &start
	if succeeded {
		j.Status.Succeeded = 1
		j.Status.CompletionTime = &now
		j.Status.Conditions = []batchv1.JobCondition{
			{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, LastTransitionTime: now, LastProbeTime: now},
			{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastTransitionTime: now, LastProbeTime: now},
		}
	} else {
		j.Status.Failed = 1
		j.Status.Conditions = []batchv1.JobCondition{
			{Type: batchv1.JobFailureTarget, Status: corev1.ConditionTrue, Reason: "BackoffLimitExceeded", Message: "simulated failure", LastTransitionTime: now, LastProbeTime: now},
			{Type: batchv1.JobFailed, Status: corev1.ConditionTrue, Reason: "BackoffLimitExceeded", Message: "simulated failure", LastTransitionTime: now, LastProbeTime: now},
		}
	}
	return c.Status().Update(ctx, &j)
}

// DeploymentAvailable reports the Deployment fully rolled out and Available.
func DeploymentAvailable(ctx context.Context, c client.Client, key client.ObjectKey) error {
	var d appsv1.Deployment
	if err := c.Get(ctx, key, &d); err != nil {
		return err
	}
	n := ptr.Deref(d.Spec.Replicas, 1)
	d.Status = appsv1.DeploymentStatus{
		ObservedGeneration: d.Generation, Replicas: n, UpdatedReplicas: n, ReadyReplicas: n, AvailableReplicas: n,
		Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue,
			Reason: "MinimumReplicasAvailable", LastUpdateTime: metav1.Now(), LastTransitionTime: metav1.Now()}},
	}
	return c.Status().Update(ctx, &d)
}

// RouteAccepted sets an HTTPRoute's parent status as a Gateway controller would.
func RouteAccepted(ctx context.Context, c client.Client, key client.ObjectKey, accepted bool) error {
	var r gatewayv1.HTTPRoute
	if err := c.Get(ctx, key, &r); err != nil {
		return err
	}
	status := metav1.ConditionFalse
	if accepted {
		status = metav1.ConditionTrue
	}
	r.Status.Parents = []gatewayv1.RouteParentStatus{{
		ParentRef:      r.Spec.ParentRefs[0],
		ControllerName: "example.com/simulated-gateway",
		Conditions: []metav1.Condition{{Type: string(gatewayv1.RouteConditionAccepted), Status: status,
			Reason: "Simulated", Message: "set by the test simulator", LastTransitionTime: metav1.Now(), ObservedGeneration: r.Generation}},
	}}
	return c.Status().Update(ctx, &r)
}

// JobFromCronJob is the Job `kubectl create job --from=cronjob/<cj> <name>`
// creates: the CronJob's job template, owned by the CronJob, marked as a
// manual run.
func JobFromCronJob(cj *batchv1.CronJob, name string) *batchv1.Job {
	annotations := map[string]string{"cronjob.kubernetes.io/instantiate": "manual"}
	for k, v := range cj.Spec.JobTemplate.Annotations {
		annotations[k] = v
	}
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Namespace: cj.Namespace, Name: name,
			Labels: cj.Spec.JobTemplate.Labels, Annotations: annotations,
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(cj, batchv1.SchemeGroupVersion.WithKind("CronJob"))}},
		Spec: *cj.Spec.JobTemplate.Spec.DeepCopy(),
	}
}
