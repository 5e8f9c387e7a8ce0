#!/usr/bin/env bash
# A kind cluster of the real-node tier: one node from the image
# hack/kind/build.sh builds (built when missing), nothing pulled.
#   hack/kind/cluster.sh up NAME     create it (kept if it exists); prints its kubeconfig
#   hack/kind/cluster.sh down NAME   delete it
#   hack/kind/cluster.sh env         the environment kind and the engine need here (eval it)
# The engine: podman when KIND_EXPERIMENTAL_PROVIDER=podman, else docker,
# kind's default. With podman (a machine whose root may not run docker's
# privileged containers, or without docker), the containers get rlimits
# within the machine's hard limits and cgroupfs (no systemd as PID 1), from
# a containers.conf of our own (CONTAINERS_CONF); /etc is not touched.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"

# podman_env writes the containers.conf podman runs kind's nodes with and
# exports what kind and podman read.
podman_env() {
  command -v podman >/dev/null || {
    log "installing podman (Debian)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends podman runc netavark aardvark-dns iptables >/dev/null
  }
  local conf="$TOOLS_DIR/kind/containers.conf" nofile nproc
  nofile=$(ulimit -Hn) nproc=$(ulimit -Hu)
  [ "$nofile" != unlimited ] || nofile=1048576
  [ "$nproc" != unlimited ] || nproc=1048576
  [ "$nproc" -le 4096 ] || nproc=4096
  mkdir -p "$(dirname "$conf")"
  # runc: crun refuses a hybrid cgroup hierarchy.
  cat >"$conf.tmp" <<EOF
[containers]
default_ulimits = ["nofile=$nofile:$nofile", "nproc=$nproc:$nproc"]
[engine]
runtime = "runc"
cgroup_manager = "cgroupfs"
events_logger = "file"
[network]
network_backend = "netavark"
EOF
  mv "$conf.tmp" "$conf"
  export CONTAINERS_CONF=$conf
  # kind's podman provider mounts the host's /lib/modules into each node;
  # podman, unlike docker, fails when it is missing (a kernel without modules).
  [ -d /lib/modules ] || mkdir -p /lib/modules
}

setup_env() {
  [ "${KIND_EXPERIMENTAL_PROVIDER:-}" != podman ] || podman_env
  "$hack/tools.sh" kind kubectl
  kind=$("$hack/tools.sh" --path kind)
}

kubeconfig_of() { echo "$TOOLS_DIR/kind/$1.kubeconfig"; }

case "${1:-}" in
up)
  name=${2:?hack/kind/cluster.sh up NAME}
  setup_env
  kubeconfig=$(kubeconfig_of "$name")
  if "$kind" get clusters 2>/dev/null | grep -qx "$name"; then
    "$kind" get kubeconfig --name "$name" >"$kubeconfig"
    echo "$kubeconfig"
    exit 0
  fi
  image=$("$here/build.sh")
  log "creating kind cluster $name from $image"
  printf '%s\n' 'kind: Cluster' 'apiVersion: kind.x-k8s.io/v1alpha4' 'nodes:' '- role: control-plane' |
    "$kind" create cluster --name "$name" --image "$image" --kubeconfig "$kubeconfig" --wait 5m --config - >&2
  echo "$kubeconfig"
  ;;
down)
  name=${2:?hack/kind/cluster.sh down NAME}
  setup_env
  "$kind" delete cluster --name "$name" --kubeconfig "$(kubeconfig_of "$name")" >&2
  rm -f "$(kubeconfig_of "$name")"
  ;;
env)
  setup_env >/dev/null
  [ -z "${CONTAINERS_CONF:-}" ] || echo "export CONTAINERS_CONF=$CONTAINERS_CONF"
  echo "export KIND_EXPERIMENTAL_PROVIDER=${KIND_EXPERIMENTAL_PROVIDER:-docker}"
  ;;
*)
  echo "usage: hack/kind/cluster.sh up|down NAME | env" >&2
  exit 2
  ;;
esac
