package localsvc

import (
	"context"
	"fmt"
	"os"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Prepared is a container of a Job or Deployment resolved from the API,
// with its files under Dir and its mount points in place. Release undoes
// both.
type Prepared struct {
	*Container
	Dir string
}

// Release removes the container's files (MountPoints keeps the mount
// points).
func (p *Prepared) Release() {
	_ = os.RemoveAll(p.Dir)
}

// PrepareJob resolves the first container of a Job's pod template.
func PrepareJob(ctx context.Context, c client.Reader, job *batchv1.Job) (*Prepared, error) {
	spec := &job.Spec.Template.Spec
	if len(spec.Containers) == 0 {
		return nil, fmt.Errorf("job %s has no container", job.Name)
	}
	return prepare(ctx, c, job.Namespace, spec, spec.Containers[0].Name, job.Name)
}

// PrepareDeployment resolves container name of a Deployment's pod template.
func PrepareDeployment(ctx context.Context, c client.Reader, d *appsv1.Deployment, name string) (*Prepared, error) {
	return prepare(ctx, c, d.Namespace, &d.Spec.Template.Spec, name, d.Name)
}

func prepare(ctx context.Context, c client.Reader, ns string, spec *corev1.PodSpec, name, owner string) (*Prepared, error) {
	dir, err := os.MkdirTemp("", owner+"-")
	if err != nil {
		return nil, err
	}
	ct, err := FromPod(ctx, c, ns, spec, name, dir)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	if err := ct.MountPoints(); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return &Prepared{Container: ct, Dir: dir}, nil
}

// Start starts the container (a Deployment's pod).
func (p *Prepared) Start() (*Proc, error) { return p.Container.Start(p.Dir) }

// RunTimeout bounds a Job's run: the db-sync script retries an unreachable
// database forever by design (max_retries = -1).
const RunTimeout = 3 * time.Minute

// PreparePod resolves container name of a scheduled pod.
func PreparePod(ctx context.Context, c client.Reader, pod *corev1.Pod, name string) (*Prepared, error) {
	return prepare(ctx, c, pod.Namespace, &pod.Spec, name, pod.Name)
}

// Provide mounts source, a directory of this machine, read-only at target:
// a file tree the image ships at a path where Debian does not install it
// (each suite names the ones it provides, e.g. Glance's metadefs).
func (p *Prepared) Provide(source, target string) error { return p.mount(source, target, true) }

// Share mounts source read-write at target, over the container's own
// volume there: another container's volume of the same pod (an emptyDir
// two containers share).
func (p *Prepared) Share(source, target string) error { return p.mount(source, target, false) }

func (p *Prepared) mount(source, target string, readOnly bool) error {
	if err := (&Container{Mounts: []Mount{{Target: target}}}).MountPoints(); err != nil {
		return err
	}
	p.Mounts = append(p.Mounts, Mount{Source: source, Target: target, ReadOnly: readOnly})
	return nil
}
