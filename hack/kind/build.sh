#!/usr/bin/env bash
# Builds the real-node tier's kind node image, with nothing pulled from a
# registry: a Debian root filesystem laid out as kind's own node image
# (hack/kind/node-customize.sh), the Kubernetes binaries of hack/toolchain,
# and the images kubeadm and the node need (control plane, etcd,
# kube-proxy, CoreDNS, pause, the CNI) built here and preloaded into the
# node's containerd. Cached by what goes into it; prints the image's name.
#   hack/kind/build.sh
# Needs root (mmdebstrap, and a containerd started in the root to preload
# the images) and a container engine: podman when
# KIND_EXPERIMENTAL_PROVIDER=podman, else docker (kind's default).
# docs/research/real-node-tier.md has the facts behind each step.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"

kube_version=$(cd "$hack/toolchain" && GOWORK=off GOFLAGS= go list -m -f '{{.Version}}' k8s.io/kubernetes)
etcd_version=$(cd "$hack/toolchain" && GOWORK=off GOFLAGS= go list -m -f '{{.Version}}' go.etcd.io/etcd/server/v3)
key=$(cat "$0" "$here/lib.sh" "$here/node-customize.sh" "$here/default-cni.yaml" "$hack/versions.env" \
  "$hack/toolchain/go.mod" "$hack/toolchain/go.sum" | sha256sum | cut -c1-12)
node=localhost/c5c3-kind/node:$kube_version-$key
if $engine image inspect "$node" >/dev/null 2>&1; then
  echo "$node"
  exit 0
fi
[ "$(id -u)" -eq 0 ] || { log "building the node image needs root (mmdebstrap, the preload's containerd)"; exit 1; }
for cmd in mmdebstrap gcc unshare; do
  command -v "$cmd" >/dev/null || { log "no $cmd: apt-get install mmdebstrap gcc util-linux"; exit 1; }
done

log "building the kind node image $node (a few minutes, once per change)"
"$hack/tools.sh" kubelet kubeadm kubectl kube-apiserver kube-controller-manager kube-scheduler kube-proxy etcd \
  kind coredns kube-router
tool() { "$hack/tools.sh" --path "$1"; }
work="$TOOLS_DIR/kind/build-$key"
rm -rf "$work"
mkdir -p "$work"
trap 'rm -rf "$work"' EXIT

# The tags kubeadm and kind's containerd config ask for; kubeadm's static
# pods and kube-proxy's DaemonSet run the binaries by name from PATH.
registry=registry.k8s.io
images=("$registry/kube-apiserver:$kube_version" "$registry/kube-controller-manager:$kube_version"
  "$registry/kube-scheduler:$kube_version" "$registry/kube-proxy:$kube_version"
  "$registry/etcd:${etcd_version#v}-0" "$registry/coredns/coredns:$COREDNS_VERSION"
  "$registry/pause:3.10" "$registry/pause:3.10.2" "localhost/c5c3-kind/kube-router:$KUBE_ROUTER_VERSION")

# The base of the images that need a libc or netfilter tools (the
# toolchain's binaries are linked against glibc; kube-proxy and
# kube-router run iptables, ipset and ip): Debian bookworm, iptables in
# legacy mode as the node's entrypoint picks in a new network namespace.
base=localhost/c5c3-kind/base:$key
mmdebstrap --quiet --variant=minbase --mode=root \
  --include=iptables,nftables,ipset,conntrack,iproute2,ca-certificates \
  --customize-hook='chroot "$1" update-alternatives --quiet --set iptables /usr/sbin/iptables-legacy' \
  --customize-hook='chroot "$1" update-alternatives --quiet --set ip6tables /usr/sbin/ip6tables-legacy' \
  --customize-hook='rm -rf "$1"/usr/share/doc/* "$1"/usr/share/man/* "$1"/usr/share/locale/* "$1"/var/lib/apt/lists/*' \
  bookworm "$work/base.tar" >&2
$engine import "$work/base.tar" "$base" >/dev/null

# image TAG FROM BINARY [DOCKERFILE LINES...]: BINARY in /usr/local/bin of
# an image FROM (the base or scratch).
image() {
  local tag=$1 from=$2 bin=$3 ctx
  shift 3
  ctx="$work/ctx-$(basename "$bin")"
  mkdir -p "$ctx"
  cp "$bin" "$ctx/"
  {
    echo "FROM $from"
    echo "COPY $(basename "$bin") /usr/local/bin/$(basename "$bin")"
    printf '%s\n' "$@"
  } >"$ctx/Dockerfile"
  $engine build -q -t "$tag" "$ctx" >/dev/null
}
for b in kube-apiserver kube-controller-manager kube-scheduler kube-proxy; do
  image "$registry/$b:$kube_version" "$base" "$(tool "$b")" "ENTRYPOINT [\"/usr/local/bin/$b\"]"
done
image "$registry/etcd:${etcd_version#v}-0" "$base" "$(tool etcd)" 'ENTRYPOINT ["/usr/local/bin/etcd"]'
image "localhost/c5c3-kind/kube-router:$KUBE_ROUTER_VERSION" "$base" "$(tool kube-router)" \
  'ENTRYPOINT ["/usr/local/bin/kube-router"]'
# CoreDNS and pause are static: no base. CoreDNS binds port 53 as root,
# as kubeadm's Deployment of it allows (NET_BIND_SERVICE).
image "$registry/coredns/coredns:$COREDNS_VERSION" scratch "$(tool coredns)" 'ENTRYPOINT ["/usr/local/bin/coredns"]'
# pause from Kubernetes' own source, as its image is built.
kube_dir=$(cd "$hack/toolchain" && GOWORK=off GOFLAGS= go list -m -f '{{.Dir}}' k8s.io/kubernetes)
gcc -Os -Wall -Werror -static -DVERSION="$kube_version-c5c3" -o "$work/pause" "$kube_dir/build/pause/linux/pause.c"
image "$registry/pause:3.10" scratch "$work/pause" 'USER 65535:65535' 'ENTRYPOINT ["/usr/local/bin/pause"]'
$engine tag "$registry/pause:3.10" "$registry/pause:3.10.2"
save_archive "$work/images.tar" "${images[@]}"

# The node's root: bookworm (its systemd 252 still runs on cgroup v1
# hosts), with containerd 2 and the CNI plugins from sid, laid out as
# kind's node image.
kind_files=$(cd "$hack/toolchain" && GOWORK=off GOFLAGS= go mod download -json "sigs.k8s.io/kind@$KIND_VERSION" |
  sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')/images/base/files
bin=$(dirname "$(tool kubelet)")
mmdebstrap --quiet --variant=minbase --mode=root \
  --aptopt='Acquire::Check-Valid-Until "false"' --aptopt='APT::Default-Release "bookworm"' \
  --include=systemd,systemd-sysv,dbus,iptables,nftables,iproute2,conntrack,ipset,util-linux,mount,kmod,libseccomp2,pigz,ca-certificates,procps,jq,runc,ebtables,ethtool,socat,containerd/sid,containernetworking-plugins/sid \
  --customize-hook="\"$here/node-customize.sh\" \"\$1\" \"$kind_files\" \"$bin\" \"$kube_version\"" \
  --customize-hook="install -D -m 0644 \"$here/default-cni.yaml\" \"\$1/kind/manifests/default-cni.yaml\"" \
  --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/usr/share/doc/* "$1"/usr/share/man/*' \
  bookworm "$work/root" "deb http://deb.debian.org/debian bookworm main" "deb http://deb.debian.org/debian sid main" >&2

# Preload: the images go into the node's containerd content store (not
# unpacked; pinned so that the kubelet's image GC keeps them), through a
# containerd started in the root in a mount namespace of its own.
log "preloading ${#images[@]} images into the node"
unshare -m bash -euo pipefail -c '
  root=$1 tar=$2
  mount --make-rprivate /
  mount --bind "$root" "$root"
  mount -t tmpfs tmpfs "$root/run"
  mount -t proc proc "$root/proc"
  chroot "$root" /usr/bin/containerd >"$root/../containerd.log" 2>&1 &
  pid=$!
  for _ in $(seq 300); do chroot "$root" ctr -n k8s.io leases ls >/dev/null 2>&1 && break; sleep 0.1; done
  chroot "$root" ctr --namespace=k8s.io images import --all-platforms --no-unpack --digests \
    --label io.cri-containerd.pinned=pinned - <"$tar" >/dev/null
  kill "$pid"
  wait "$pid" || true
' preload "$work/root" "$work/images.tar"

tar -C "$work/root" -c . | $engine import - "$node-rootfs" >/dev/null
mkdir -p "$work/ctx-node"
# The node's entrypoint and init as in kind's image; STOPSIGNAL lets
# systemd shut down cleanly.
printf '%s\n' "FROM $node-rootfs" 'ENV container=docker' 'STOPSIGNAL SIGRTMIN+3' \
  'ENTRYPOINT ["/usr/local/bin/entrypoint", "/sbin/init"]' >"$work/ctx-node/Dockerfile"
$engine build -q -t "$node" "$work/ctx-node" >/dev/null
$engine rmi "$node-rootfs" >/dev/null 2>&1 || true
echo "$node"
