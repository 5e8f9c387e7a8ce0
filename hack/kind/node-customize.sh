#!/usr/bin/env bash
# mmdebstrap's customize hook for the kind node's root (hack/kind/node.sh):
# lays out the root as kind's node image does, from kind's own files
# (its module's images/base/files, read from the module cache) and the
# Debian packages installed, plus the kubelet, kubeadm and kubectl built
# from hack/toolchain. Facts from kind v0.33.0's images/base/Dockerfile.
#   node-customize.sh ROOT KIND_FILES KUBE_BIN_DIR KUBE_VERSION
set -euo pipefail
root=$1 files=$2 bin=$3 version=$4

# kind's files, with the modes its Dockerfile gives them (a module zip
# keeps no modes).
install -d -m 0755 "$root/kind" "$root/kind/bin" "$root/LICENSES"
cp -r "$files/etc/." "$root/etc/"
cp -r "$files/kind/." "$root/kind/"
cp -r "$files/LICENSES/." "$root/LICENSES/"
cp "$files/usr/local/bin/"* "$root/usr/local/bin/"
find "$root/etc/systemd/system" "$root/etc/containerd" "$root/etc/default" "$root/etc/sysctl.d" "$root/LICENSES" -type f -exec chmod 0644 {} +
chmod 0644 "$root/etc/crictl.yaml"
chmod 0755 "$root"/kind/bin/* "$root"/usr/local/bin/*

# Debian installs containerd in /usr/bin and the CNI plugins in
# /usr/lib/cni; kind's unit and containerd's default look in /usr/local/bin
# and /opt/cni/bin.
for b in containerd ctr containerd-shim-runc-v2; do ln -sf "/usr/bin/$b" "$root/usr/local/bin/$b"; done
rm -rf "$root/opt/cni/bin"
mkdir -p "$root/opt/cni"
ln -s /usr/lib/cni "$root/opt/cni/bin"

# systemd as kind's node runs it: no units pulled in by the targets but its
# own, the kernel log not read, binfmt (kernel-global) left alone.
rm -f "$root"/lib/systemd/system/multi-user.target.wants/* \
  "$root"/etc/systemd/system/*.wants/* \
  "$root"/lib/systemd/system/local-fs.target.wants/* \
  "$root"/lib/systemd/system/sockets.target.wants/*udev* \
  "$root"/lib/systemd/system/sockets.target.wants/*initctl* \
  "$root"/lib/systemd/system/basic.target.wants/* \
  "$root"/lib/systemd/system/sysinit.target.wants/systemd-tmpfiles-setup*
echo "ReadKMsg=no" >>"$root/etc/systemd/journald.conf"
chroot "$root" systemctl enable kubelet.service containerd.service undo-mount-hacks.service >/dev/null
chroot "$root" systemctl mask systemd-binfmt.service >/dev/null 2>&1
mkdir -p "$root/etc/kubernetes/manifests"

# The node runs without CAP_SYS_RESOURCE on some hosts (a VM whose root
# lacks it in its bounding set): a pod's oom_score_adj is then clamped to
# containerd's own instead of failing the sandbox, as in rootless kind.
sed -i 's/restrict_oom_score_adj = false/restrict_oom_score_adj = true/' "$root/etc/containerd/config.toml"
grep -q 'restrict_oom_score_adj = true' "$root/etc/containerd/config.toml"

# The containers' base spec: containerd's default with kind's hook, and no
# rlimits (a pod keeps the node's, which stay inside the host's).
chroot "$root" ctr oci spec | python3 -c '
import json, sys
spec = json.load(sys.stdin)
spec.setdefault("hooks", {}).setdefault("createContainer", []).append({"path": "/kind/bin/mount-product-files.sh"})
spec["process"].pop("rlimits", None)
json.dump(spec, sys.stdout, indent=2)' >"$root/etc/containerd/cri-base.json"

# Kubernetes 1.35 and later refuse cgroup v1 unless told otherwise: the node
# runs on v1 hosts too (a no-op on v2).
sed -i 's|^KUBELET_EXTRA_ARGS=.*|& --fail-cgroupv1=false|' "$root/etc/default/kubelet"

install -m 0755 "$bin/kubelet" "$bin/kubeadm" "$bin/kubectl" "$root/usr/bin/"
echo "$version" >"$root/kind/version"
