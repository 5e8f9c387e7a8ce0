package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const testScript = "placement-manage --config-file /etc/placement/placement.conf db sync"

func jobParams() JobParams {
	return JobParams{
		ID:            testID,
		Name:          "p1-db-sync",
		ContainerName: "db-sync",
		Image:         "registry.example/placement:2025.2",
		Script:        testScript,
		Env:           []corev1.EnvVar{{Name: "OS_PLACEMENT_DATABASE__CONNECTION", Value: "mysql+pymysql://x"}},
		ConfigMapName: "p1-config-abcd1234",
		ConfigDir:     "/etc/placement",
		RunAsID:       42424,
	}
}

func TestJob(t *testing.T) {
	tests := []struct {
		name       string
		tls        *DBTLSMount
		wantVols   []corev1.Volume
		wantMounts []corev1.VolumeMount
	}{
		{
			name:       "tls off",
			wantVols:   []corev1.Volume{wantConfigVolume()},
			wantMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/etc/placement", ReadOnly: true}},
		},
		{
			name:     "tls on",
			tls:      &DBTLSMount{CASecret: "db-ca", ClientCertSecret: "db-client", MountPath: "/etc/placement-db-tls/"},
			wantVols: []corev1.Volume{wantConfigVolume(), wantDBTLSVolume()},
			wantMounts: []corev1.VolumeMount{
				{Name: "config", MountPath: "/etc/placement", ReadOnly: true},
				{Name: "db-tls", MountPath: "/etc/placement-db-tls/", ReadOnly: true},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := jobParams()
			p.DBTLS = tt.tls
			tmpl := corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy:   corev1.RestartPolicyNever,
				SecurityContext: wantPodSC(),
				Containers: []corev1.Container{{
					Name:            "db-sync",
					Image:           "registry.example/placement:2025.2",
					Command:         []string{"/bin/sh", "-eu", "-c", testScript},
					Env:             []corev1.EnvVar{{Name: "OS_PLACEMENT_DATABASE__CONNECTION", Value: "mysql+pymysql://x"}},
					VolumeMounts:    tt.wantMounts,
					SecurityContext: wantContainerSC(),
				}},
				Volumes: tt.wantVols,
			}}
			want := &batchv1.Job{
				ObjectMeta: metav1.ObjectMeta{
					Name: "p1-db-sync", Namespace: "openstack",
					Labels: map[string]string{
						"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "p1",
						"app.kubernetes.io/managed-by": "placement-operator",
					},
					Annotations: map[string]string{PodSpecHashAnnotation: PodTemplateHash(tmpl)},
				},
				Spec: batchv1.JobSpec{BackoffLimit: new(int32(4)), Template: tmpl},
			}
			got := Job(p)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Job mismatch (-want +got):\n%s", diff)
			}
			// Pods of the Job must not match the API selectors.
			if got.Spec.Template.Labels != nil {
				t.Errorf("Job pod template has labels %v", got.Spec.Template.Labels)
			}
		})
	}
}

func TestPodTemplateHash(t *testing.T) {
	a := Job(jobParams()).Spec.Template
	b := Job(jobParams()).Spec.Template
	changed := jobParams()
	changed.Env[0].Value = "mysql+pymysql://y"
	c := Job(changed).Spec.Template
	withTLS := jobParams()
	withTLS.DBTLS = &DBTLSMount{CASecret: "db-ca", MountPath: "/tls"}
	d := Job(withTLS).Spec.Template

	ha := PodTemplateHash(a)
	if len(ha) != 64 {
		t.Fatalf("hash %q is not 64 hex characters", ha)
	}
	if hb := PodTemplateHash(b); ha != hb {
		t.Errorf("equal templates hash differently: %s vs %s", ha, hb)
	}
	if hc := PodTemplateHash(c); ha == hc {
		t.Error("changed env var did not change the hash")
	}
	if hd := PodTemplateHash(d); ha == hd {
		t.Error("added volume did not change the hash")
	}
	// Map iteration order must not leak into the key.
	m1 := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"a": "1", "b": "2", "c": "3"}}}
	m2 := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{"c": "3", "b": "2", "a": "1"}}}
	for range 20 {
		if PodTemplateHash(m1) != PodTemplateHash(m2) {
			t.Fatal("hash depends on map order")
		}
	}
}
