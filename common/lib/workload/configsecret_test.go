package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
)

// A Secret-backed config replaces the ConfigMap volume in every pod the
// builders render, under the same volume name and mount.
func TestConfigSecretVolume(t *testing.T) {
	const secret = "b1-config-0a1b2c3d"
	want := corev1.Volume{Name: "config", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: secret}}}
	if diff := cmp.Diff(want, ConfigSecretVolume(secret)); diff != "" {
		t.Errorf("ConfigSecretVolume mismatch (-want +got):\n%s", diff)
	}
	wantMount := corev1.VolumeMount{Name: "config", MountPath: "/etc/placement", ReadOnly: true}

	dp := baseParams()
	dp.ConfigSecretName = secret
	job := jobParams()
	job.ConfigSecretName = secret
	cj := cronJobParams()
	cj.ConfigSecretName = secret
	pods := map[string]corev1.PodSpec{
		"Deployment": Deployment(dp).Spec.Template.Spec,
		"Job":        Job(job).Spec.Template.Spec,
		"CronJob":    CronJob(cj).Spec.JobTemplate.Spec.Template.Spec,
	}
	for kind, pod := range pods {
		if diff := cmp.Diff(want, pod.Volumes[0]); diff != "" {
			t.Errorf("%s config volume mismatch (-want +got):\n%s", kind, diff)
		}
		if diff := cmp.Diff(wantMount, pod.Containers[0].VolumeMounts[0]); diff != "" {
			t.Errorf("%s config mount mismatch (-want +got):\n%s", kind, diff)
		}
	}
	// The rerun key follows the backing object.
	if Job(job).Annotations[PodSpecHashAnnotation] == Job(jobParams()).Annotations[PodSpecHashAnnotation] {
		t.Error("a Secret-backed config keeps the ConfigMap-backed rerun key")
	}
}
