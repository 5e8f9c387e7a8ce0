package localsvc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Mount is a directory shown to a container at Target.
type Mount struct {
	Source, Target string
	ReadOnly       bool
}

// Container is a container of a pod template made runnable here: its
// command, its environment resolved from the API, and its volumes written
// to disk. It runs in its own mount namespace with every volume
// bind-mounted at its mountPath, so the command sees exactly the paths the
// pod would.
type Container struct {
	Name    string
	Argv    []string
	Env     []string
	Mounts  []Mount
	PreStop []string
	// Grace is the pod's terminationGracePeriodSeconds (30 s when unset).
	Grace time.Duration
	// Hosts resolve to 127.0.0.1 inside the container (an /etc/hosts is
	// mounted over the machine's): the cluster Services whose servers run
	// on this machine. An entry name=address resolves name to another
	// loopback address (HostAt).
	Hosts []string
	// Root, when set, is the root filesystem the command runs in (chroot):
	// a newer Debian release's services (hack/rootfs.sh). The volumes,
	// /proc, /dev, /tmp (where the container's files are) and the hosts
	// file are mounted into it; the network is the machine's.
	Root string
}

// FromPod resolves container name of spec in namespace ns: env values from
// literals, Secrets and ConfigMaps; volumes (configMap, secret, projected,
// emptyDir) written under dir. home is the process's HOME.
func FromPod(ctx context.Context, c client.Reader, ns string, spec *corev1.PodSpec, name, dir string) (*Container, error) {
	var ctr *corev1.Container
	for i := range spec.Containers {
		if spec.Containers[i].Name == name {
			ctr = &spec.Containers[i]
		}
	}
	if ctr == nil {
		return nil, fmt.Errorf("pod template has no container %q", name)
	}
	out := &Container{Name: name, Argv: append(append([]string{}, ctr.Command...), ctr.Args...), Grace: 30 * time.Second}
	if spec.TerminationGracePeriodSeconds != nil {
		out.Grace = time.Duration(*spec.TerminationGracePeriodSeconds) * time.Second
	}
	if ctr.Lifecycle != nil && ctr.Lifecycle.PreStop != nil && ctr.Lifecycle.PreStop.Exec != nil {
		out.PreStop = ctr.Lifecycle.PreStop.Exec.Command
	}
	out.Env = BaseEnv(dir)
	r := resolver{ctx: ctx, c: c, ns: ns}
	for _, e := range ctr.Env {
		v, err := r.env(e)
		if err != nil {
			return nil, err
		}
		out.Env = append(out.Env, e.Name+"="+v)
	}
	volumes := map[string]corev1.Volume{}
	for _, v := range spec.Volumes {
		volumes[v.Name] = v
	}
	for _, vm := range ctr.VolumeMounts {
		v, ok := volumes[vm.Name]
		if !ok {
			return nil, fmt.Errorf("volumeMount %q names no volume", vm.Name)
		}
		src := filepath.Join(dir, "volumes", vm.Name)
		if err := r.volume(v, src); err != nil {
			return nil, fmt.Errorf("volume %q: %w", vm.Name, err)
		}
		if vm.SubPath != "" {
			src = filepath.Join(src, vm.SubPath)
		}
		out.Mounts = append(out.Mounts, Mount{Source: src, Target: vm.MountPath, ReadOnly: vm.ReadOnly})
	}
	return out, nil
}

// Start runs the container's argv in a new mount namespace with its
// volumes mounted at mount points MountPoints made.
func (ct *Container) Start(dir string) (*Proc, error) {
	return Start(ct.spec(dir, ct.Name, ct.Argv))
}

// Run runs the container to completion (a Job's pod), at most timeout.
func (ct *Container) Run(dir string, timeout time.Duration) (int, string, error) {
	return Run(ct.spec(dir, ct.Name, ct.Argv), timeout)
}

// StopLikeKubelet runs the preStop hook, then sends SIGTERM to the
// container's main process (not its children) and waits for the rest of
// the grace period before SIGKILL, as the kubelet and the runtime do. It
// returns how long the container took to exit after the SIGTERM and an
// error when it had to be killed.
func (ct *Container) StopLikeKubelet(dir string, p *Proc) (time.Duration, error) {
	start := time.Now()
	var hookErr error
	if len(ct.PreStop) > 0 {
		if code, log, err := Run(ct.spec(dir, ct.Name+"-prestop", ct.PreStop), ct.Grace); err != nil || code != 0 {
			// The kubelet goes on with the stop after a failed hook.
			hookErr = exitError("preStop", code, err, log)
		}
	}
	rest := ct.Grace - time.Since(start)
	term := time.Now()
	if rest <= 0 {
		return 0, errors.Join(hookErr, p.StopLikeRuntime(0))
	}
	err := p.StopLikeRuntime(rest)
	return time.Since(term), errors.Join(hookErr, err)
}

// spec wraps argv in unshare(1): a private mount namespace in which sh
// bind-mounts every volume, then execs the command, so the process is the
// command itself (signals reach it directly).
func (ct *Container) spec(dir, name string, argv []string) ProcSpec {
	mounts := ct.Mounts
	if len(ct.Hosts) > 0 {
		hosts := filepath.Join(dir, "hosts")
		if err := os.WriteFile(hosts, []byte(hostsFile(ct.Hosts)), 0o644); err == nil {
			mounts = append(append([]Mount{}, mounts...), Mount{Source: hosts, Target: "/etc/hosts", ReadOnly: true})
		}
	}
	var script strings.Builder
	exec := `exec "$@"`
	if ct.Root != "" {
		// The machine's /proc, /dev and /tmp first, so that volumes under
		// them (and the container's directory) land on top.
		base := []Mount{{Source: "/proc", Target: "/proc"}, {Source: "/dev", Target: "/dev"}, {Source: "/tmp", Target: "/tmp"}}
		mounts = append(base, mounts...)
		// chroot starts in /; env returns to the container's directory.
		exec = fmt.Sprintf(`exec chroot %s /usr/bin/env --chdir=%s "$@"`, shellQuote(ct.Root), shellQuote(dir))
	}
	for _, m := range mounts {
		target := m.Target
		if ct.Root != "" {
			// Mount points in the root are made as needed and kept: the
			// root is a cache of this machine, not a shared system path.
			target = filepath.Join(ct.Root, m.Target)
			if fi, err := os.Stat(m.Source); err == nil && !fi.IsDir() {
				fmt.Fprintf(&script, "mkdir -p %s && touch %s && ", shellQuote(filepath.Dir(target)), shellQuote(target))
			} else {
				fmt.Fprintf(&script, "mkdir -p %s && ", shellQuote(target))
			}
		}
		fmt.Fprintf(&script, "mount --rbind %s %s && ", shellQuote(m.Source), shellQuote(target))
		if m.ReadOnly {
			fmt.Fprintf(&script, "mount -o remount,bind,ro %s && ", shellQuote(target))
		}
	}
	script.WriteString(exec)
	wrapped := append([]string{"unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c", script.String(), "sh"}, argv...)
	return ProcSpec{Name: name, Dir: dir, Argv: wrapped, Env: ct.Env}
}

// HostAt is the Hosts entry that resolves name to address.
func HostAt(name, address string) string { return name + "=" + address }

// hostsFile is the /etc/hosts of a container resolving hosts (Hosts). Each
// name is there in its absolute form (a trailing dot) too: cluster DNS
// answers both, and glibc's hosts file lookup matches names exactly (glance
// 33 resolves "<host>." to check a web-download URL).
func hostsFile(hosts []string) string {
	byAddress := map[string][]string{"127.0.0.1": {"localhost"}}
	order := []string{"127.0.0.1"}
	for _, h := range hosts {
		name, address, ok := strings.Cut(h, "=")
		if !ok {
			address = "127.0.0.1"
		}
		if _, seen := byAddress[address]; !seen {
			order = append(order, address)
		}
		byAddress[address] = append(byAddress[address], name, name+".")
	}
	var b strings.Builder
	for _, address := range order {
		fmt.Fprintf(&b, "%s %s\n", address, strings.Join(byAddress[address], " "))
	}
	b.WriteString("::1 localhost\n")
	return b.String()
}

// MountPoints creates the mount points that do not exist yet. They are
// kept, empty, after the run, as the mount points in a root filesystem
// are: removing one would detach the mounts another container running at
// the same time (another pod of the Deployment, a Job) holds there in its
// own mount namespace (Linux lets rmdir take a mount point of another
// namespace and lazily unmounts it there), and that container would find
// the directory gone.
func (ct *Container) MountPoints() error {
	for _, m := range ct.Mounts {
		if err := os.MkdirAll(m.Target, 0o755); err != nil {
			return err
		}
	}
	return nil
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

type resolver struct {
	ctx context.Context
	c   client.Reader
	ns  string
}

func (r resolver) env(e corev1.EnvVar) (string, error) {
	if e.ValueFrom == nil {
		return e.Value, nil
	}
	switch {
	case e.ValueFrom.SecretKeyRef != nil:
		ref := e.ValueFrom.SecretKeyRef
		data, err := r.secret(ref.Name)
		if err != nil {
			return "", fmt.Errorf("env %s: %w", e.Name, err)
		}
		v, ok := data[ref.Key]
		if !ok {
			return "", fmt.Errorf("env %s: Secret %s has no key %q", e.Name, ref.Name, ref.Key)
		}
		return string(v), nil
	case e.ValueFrom.ConfigMapKeyRef != nil:
		ref := e.ValueFrom.ConfigMapKeyRef
		data, err := r.configMap(ref.Name)
		if err != nil {
			return "", fmt.Errorf("env %s: %w", e.Name, err)
		}
		v, ok := data[ref.Key]
		if !ok {
			return "", fmt.Errorf("env %s: ConfigMap %s has no key %q", e.Name, ref.Name, ref.Key)
		}
		return string(v), nil
	}
	return "", fmt.Errorf("env %s: unsupported valueFrom", e.Name)
}

func (r resolver) secret(name string) (map[string][]byte, error) {
	var s corev1.Secret
	if err := r.c.Get(r.ctx, client.ObjectKey{Namespace: r.ns, Name: name}, &s); err != nil {
		return nil, err
	}
	return s.Data, nil
}

func (r resolver) configMap(name string) (map[string][]byte, error) {
	var cm corev1.ConfigMap
	if err := r.c.Get(r.ctx, client.ObjectKey{Namespace: r.ns, Name: name}, &cm); err != nil {
		return nil, err
	}
	data := map[string][]byte{}
	for k, v := range cm.Data {
		data[k] = []byte(v)
	}
	for k, v := range cm.BinaryData {
		data[k] = v
	}
	return data, nil
}

// volume writes the volume's files into dir.
func (r resolver) volume(v corev1.Volume, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	switch {
	case v.EmptyDir != nil:
		return nil
	case v.ConfigMap != nil:
		data, err := r.configMap(v.ConfigMap.Name)
		if err != nil {
			return err
		}
		return writeItems(dir, data, v.ConfigMap.Items, v.ConfigMap.DefaultMode)
	case v.Secret != nil:
		data, err := r.secret(v.Secret.SecretName)
		if err != nil {
			return err
		}
		return writeItems(dir, data, v.Secret.Items, v.Secret.DefaultMode)
	case v.Projected != nil:
		for _, src := range v.Projected.Sources {
			var data map[string][]byte
			var items []corev1.KeyToPath
			var err error
			switch {
			case src.Secret != nil:
				data, err = r.secret(src.Secret.Name)
				items = src.Secret.Items
			case src.ConfigMap != nil:
				data, err = r.configMap(src.ConfigMap.Name)
				items = src.ConfigMap.Items
			case src.ServiceAccountToken != nil, src.DownwardAPI != nil:
				// The kubelet's API credentials: the services run here do
				// not talk to the Kubernetes API.
				continue
			default:
				return errors.New("unsupported projected source")
			}
			if err != nil {
				return err
			}
			if err := writeItems(dir, data, items, v.Projected.DefaultMode); err != nil {
				return err
			}
		}
		return nil
	}
	return errors.New("unsupported volume source")
}

func writeItems(dir string, data map[string][]byte, items []corev1.KeyToPath, mode *int32) error {
	perm := os.FileMode(0o644)
	if mode != nil {
		perm = os.FileMode(*mode)
	}
	paths := map[string]string{}
	if len(items) == 0 {
		for k := range data {
			paths[k] = k
		}
	}
	for _, it := range items {
		paths[it.Key] = it.Path
	}
	for key, path := range paths {
		v, ok := data[key]
		if !ok {
			return fmt.Errorf("key %q missing", key)
		}
		target := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, v, perm); err != nil {
			return err
		}
	}
	return nil
}
