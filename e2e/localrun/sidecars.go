package localrun

import (
	"context"
	"path/filepath"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/c5c3/openstack-operators/e2e/localsvc"
)

// sidecar is a container of an API pod run beside the API process.
type sidecar struct {
	name      string
	container *localsvc.Prepared
	proc      *localsvc.Proc
}

// startSidecars starts the profile's sidecars the pod has. Each emptyDir
// volume a sidecar shares with the API container is the API container's
// directory (one volume, as in the pod). A sidecar that cannot start is
// logged, as a container in CrashLoopBackOff would show.
func (r *Runner) startSidecars(ctx context.Context, pod *corev1.Pod, p *Profile, api *localsvc.Prepared) []*sidecar {
	var out []*sidecar
	for _, c := range pod.Spec.Containers {
		if !slices.Contains(p.Sidecars, c.Name) {
			continue
		}
		logger := log.FromContext(ctx).WithValues("pod", pod.Name, "container", c.Name)
		ct, err := r.prepare(ctx, pod, p, c.Name)
		if err != nil {
			logger.Error(err, "preparing the sidecar")
			continue
		}
		for _, m := range c.VolumeMounts {
			if emptyDirShared(pod, api, m.Name) {
				if err := ct.Share(filepath.Join(api.Dir, "volumes", m.Name), m.MountPath); err != nil {
					logger.Error(err, "sharing the volume", "volume", m.Name)
				}
			}
		}
		proc, err := ct.Start()
		if err != nil {
			ct.Release()
			logger.Error(err, "starting the sidecar")
			continue
		}
		r.track(proc)
		logger.Info("sidecar started", "log", proc.LogPath)
		out = append(out, &sidecar{name: c.Name, container: ct, proc: proc})
	}
	return out
}

// emptyDirShared tells whether volume is an emptyDir the API container mounts.
func emptyDirShared(pod *corev1.Pod, api *localsvc.Prepared, volume string) bool {
	for _, v := range pod.Spec.Volumes {
		if v.Name == volume && v.EmptyDir != nil {
			for _, m := range api.Mounts {
				if m.Source == filepath.Join(api.Dir, "volumes", volume) {
					return true
				}
			}
		}
	}
	return false
}

// stopSidecars stops them as the kubelet stops a pod's containers.
func stopSidecars(ctx context.Context, sidecars []*sidecar) {
	for _, s := range sidecars {
		if _, err := s.container.StopLikeKubelet(s.container.Dir, s.proc); err != nil {
			log.FromContext(ctx).Info("sidecar killed", "container", s.name, "reason", err.Error())
		}
		s.container.Release()
	}
}

// Sidecar is a running sidecar of an API pod, for tests.
type Sidecar struct {
	Pod, Container string
	Proc           *localsvc.Proc
	// Volume is where the pod's emptyDir volume of a name is on this machine.
	Volume func(name string) string
}

// Sidecars lists the running sidecars named container in namespace ns.
func (r *Runner) Sidecars(ns, container string) []Sidecar {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Sidecar
	for _, p := range r.pods {
		if p.pod.Namespace != ns || p.stopped {
			continue
		}
		for _, s := range p.sidecars {
			if s.name == container && !s.proc.Exited() {
				dir := p.container.Dir
				out = append(out, Sidecar{Pod: p.pod.Name, Container: s.name, Proc: s.proc,
					Volume: func(name string) string { return filepath.Join(dir, "volumes", name) }})
			}
		}
	}
	return out
}
