package testenv

import corev1 "k8s.io/api/core/v1"

// Volume is the pod volume called name, nil when there is none.
func Volume(vols []corev1.Volume, name string) *corev1.Volume {
	for i := range vols {
		if vols[i].Name == name {
			return &vols[i]
		}
	}
	return nil
}

// Mounts maps each of the container's mounts to its path, followed by
// " ro" when it is read-only.
func Mounts(c corev1.Container) map[string]string {
	out := map[string]string{}
	for _, m := range c.VolumeMounts {
		out[m.Name] = m.MountPath
		if m.ReadOnly {
			out[m.Name] += " ro"
		}
	}
	return out
}
