package localrun

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// setReady reports a pod's containers ready or not, as the kubelet does
// when the readiness probe passes or fails. kwok starts a pod whose
// containers have a readiness probe unready (hack/kwokctl.yaml): the API
// process answering is the probe here.
func (r *Runner) setReady(ctx context.Context, key types.NamespacedName, ready bool) error {
	var pod corev1.Pod
	if err := r.Client.Get(ctx, key, &pod); err != nil {
		return client.IgnoreNotFound(err)
	}
	base := pod.DeepCopy()
	now := metav1.Now()
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	for i, c := range pod.Status.Conditions {
		if (c.Type == corev1.PodReady || c.Type == corev1.ContainersReady) && c.Status != status {
			pod.Status.Conditions[i].Status = status
			pod.Status.Conditions[i].LastTransitionTime = now
		}
	}
	for i := range pod.Status.ContainerStatuses {
		pod.Status.ContainerStatuses[i].Ready = ready
	}
	return r.Client.Status().Patch(ctx, &pod, client.MergeFrom(base))
}

// setRestarts writes a container's restart count, as the kubelet does when
// it starts a failed container again.
func (r *Runner) setRestarts(ctx context.Context, key types.NamespacedName, container string, n int) error {
	var pod corev1.Pod
	if err := r.Client.Get(ctx, key, &pod); err != nil {
		return client.IgnoreNotFound(err)
	}
	base := pod.DeepCopy()
	for i := range pod.Status.ContainerStatuses {
		if pod.Status.ContainerStatuses[i].Name == container {
			pod.Status.ContainerStatuses[i].RestartCount = int32(n)
		}
	}
	return r.Client.Status().Patch(ctx, &pod, client.MergeFrom(base))
}
