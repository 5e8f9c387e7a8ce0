package workload

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func cronJobParams() CronJobParams {
	return CronJobParams{
		ID:                    testID,
		Name:                  "p1-db-purge",
		Component:             "db-purge",
		Schedule:              "1 0 * * *",
		ContainerName:         "db-purge",
		Image:                 "registry.example/placement:2025.2",
		Script:                "manage db purge",
		Env:                   []corev1.EnvVar{{Name: "OS_DATABASE__CONNECTION", Value: "mysql+pymysql://x"}},
		ConfigMapName:         "p1-config-abcd1234",
		ConfigDir:             "/etc/placement",
		RunAsID:               42424,
		ActiveDeadlineSeconds: 3600,
	}
}

func TestCronJob(t *testing.T) {
	common := map[string]string{
		"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "p1",
		"app.kubernetes.io/managed-by": "placement-operator",
	}
	pod := map[string]string{
		"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "p1",
		"app.kubernetes.io/managed-by": "placement-operator", "app.kubernetes.io/component": "db-purge",
	}
	tests := []struct {
		name       string
		mut        func(*CronJobParams)
		suspend    bool
		deadline   *int64
		wantVols   []corev1.Volume
		wantMounts []corev1.VolumeMount
	}{
		{
			name:       "defaults",
			mut:        func(*CronJobParams) {},
			deadline:   new(int64(3600)),
			wantVols:   []corev1.Volume{wantConfigVolume()},
			wantMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/etc/placement", ReadOnly: true}},
		},
		{
			name: "suspended with tls and no deadline",
			mut: func(p *CronJobParams) {
				p.Suspend = true
				p.ActiveDeadlineSeconds = 0
				p.DBTLS = &DBTLSMount{CASecret: "db-ca", ClientCertSecret: "db-client", MountPath: "/etc/placement-db-tls/"}
			},
			suspend:  true,
			wantVols: []corev1.Volume{wantConfigVolume(), wantDBTLSVolume()},
			wantMounts: []corev1.VolumeMount{
				{Name: "config", MountPath: "/etc/placement", ReadOnly: true},
				{Name: "db-tls", MountPath: "/etc/placement-db-tls/", ReadOnly: true},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := cronJobParams()
			tt.mut(&p)
			want := &batchv1.CronJob{
				ObjectMeta: metav1.ObjectMeta{Name: "p1-db-purge", Namespace: "openstack", Labels: common},
				Spec: batchv1.CronJobSpec{
					Schedule:          "1 0 * * *",
					Suspend:           new(tt.suspend),
					ConcurrencyPolicy: batchv1.ForbidConcurrent,
					JobTemplate: batchv1.JobTemplateSpec{
						ObjectMeta: metav1.ObjectMeta{Labels: common},
						Spec: batchv1.JobSpec{
							ActiveDeadlineSeconds: tt.deadline,
							Template: corev1.PodTemplateSpec{
								ObjectMeta: metav1.ObjectMeta{Labels: pod},
								Spec: corev1.PodSpec{
									RestartPolicy:   corev1.RestartPolicyOnFailure,
									SecurityContext: wantPodSC(),
									Containers: []corev1.Container{{
										Name:            "db-purge",
										Image:           "registry.example/placement:2025.2",
										Command:         []string{"/bin/sh", "-eu", "-c", "manage db purge"},
										Env:             []corev1.EnvVar{{Name: "OS_DATABASE__CONNECTION", Value: "mysql+pymysql://x"}},
										VolumeMounts:    tt.wantMounts,
										SecurityContext: wantContainerSC(),
									}},
									Volumes: tt.wantVols,
								},
							},
						},
					},
				},
			}
			got := CronJob(p)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("CronJob mismatch (-want +got):\n%s", diff)
			}
			if got.Spec.SuccessfulJobsHistoryLimit != nil || got.Spec.FailedJobsHistoryLimit != nil || got.Spec.JobTemplate.Spec.BackoffLimit != nil {
				t.Error("history limits and backoffLimit must stay unset")
			}
			// The three label maps must not share storage.
			got.Labels["x"] = "y"
			if _, ok := got.Spec.JobTemplate.Labels["x"]; ok {
				t.Error("CronJob and job template labels alias each other")
			}
		})
	}
}

// An argv Command runs as it is; without one the Script runs under the shell.
func TestCronJobCommandOrScript(t *testing.T) {
	argv := []string{"barbican-manage", "db", "clean", "--min-days", "90"}
	cj := CronJob(CronJobParams{Name: "x-db-clean", Command: argv, Script: "ignored"})
	if got := cj.Spec.JobTemplate.Spec.Template.Spec.Containers[0].Command; !slices.Equal(got, argv) {
		t.Errorf("command = %q, want %q", got, argv)
	}
	cj = CronJob(CronJobParams{Name: "x-db-purge", Script: "glance-manage db purge"})
	if got := cj.Spec.JobTemplate.Spec.Template.Spec.Containers[0].Command; !slices.Equal(got, []string{"/bin/sh", "-eu", "-c", "glance-manage db purge"}) {
		t.Errorf("command = %q", got)
	}
}
