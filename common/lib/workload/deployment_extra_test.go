package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func TestDeploymentExtraVolumesAndSidecars(t *testing.T) {
	limit := resource.MustParse("1Gi")
	scratch := corev1.Volume{Name: "scratch", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{SizeLimit: &limit}}}
	sidecar := corev1.Container{Name: "helper", Image: "helper:1", VolumeMounts: []corev1.VolumeMount{{Name: "scratch", MountPath: "/s"}}}
	p := baseParams()
	p.DBTLS = &DBTLSMount{CASecret: "db-ca", ClientCertSecret: "db-client", MountPath: "/etc/placement-db-tls/"}
	p.ExtraVolumes = []corev1.Volume{scratch}
	p.ExtraMounts = []corev1.VolumeMount{{Name: "scratch", MountPath: "/var/scratch"}}
	p.Sidecars = []corev1.Container{sidecar}

	got := Deployment(p)
	spec := got.Spec.Template.Spec
	if diff := cmp.Diff([]corev1.Volume{wantConfigVolume(), wantDBTLSVolume(), scratch}, spec.Volumes); diff != "" {
		t.Errorf("volumes (-want +got):\n%s", diff)
	}
	wantMounts := []corev1.VolumeMount{
		{Name: "config", MountPath: "/etc/placement", ReadOnly: true},
		{Name: "db-tls", MountPath: "/etc/placement-db-tls/", ReadOnly: true},
		{Name: "scratch", MountPath: "/var/scratch"},
	}
	if diff := cmp.Diff(wantMounts, spec.Containers[0].VolumeMounts); diff != "" {
		t.Errorf("API mounts (-want +got):\n%s", diff)
	}
	if len(spec.Containers) != 2 || spec.Containers[0].Name != "placement-api" {
		t.Fatalf("containers = %v, want the API container then the sidecar", spec.Containers)
	}
	if diff := cmp.Diff(sidecar, spec.Containers[1]); diff != "" {
		t.Errorf("sidecar (-want +got):\n%s", diff)
	}

	// The rendered object must not alias the parameters.
	spec.Volumes[2].EmptyDir.SizeLimit.Set(1)
	spec.Containers[1].VolumeMounts[0].MountPath = "/x"
	spec.Containers[0].VolumeMounts[2].MountPath = "/y"
	if p.ExtraVolumes[0].EmptyDir.SizeLimit.Cmp(resource.MustParse("1Gi")) != 0 ||
		p.Sidecars[0].VolumeMounts[0].MountPath != "/s" || p.ExtraMounts[0].MountPath != "/var/scratch" {
		t.Error("Deployment aliases ExtraVolumes, ExtraMounts or Sidecars")
	}

	// Without extras the pod is exactly what it was before they existed.
	plain := Deployment(baseParams()).Spec.Template.Spec
	if len(plain.Containers) != 1 || len(plain.Volumes) != 1 || len(plain.Containers[0].VolumeMounts) != 1 {
		t.Errorf("no extras rendered %d containers, %d volumes", len(plain.Containers), len(plain.Volumes))
	}
}
