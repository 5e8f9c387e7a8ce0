#!/usr/bin/env bash
# A local control plane for development and e2e: etcd, kube-apiserver,
# kube-controller-manager and kube-scheduler of the pinned version plus a kwok
# controller with fake nodes, run as plain processes by kwokctl's binary
# runtime (no containers). Deployments roll out and Jobs complete on the fake
# nodes; no container ever runs.
#   hack/cluster.sh up [NAME]          create or restart the cluster; idempotent
#   hack/cluster.sh down [NAME]        stop every process and delete the state
#   hack/cluster.sh kubeconfig [NAME]  print the kubeconfig path
#   hack/cluster.sh status [NAME]      print the components and their state
# State lives in the git-ignored .cache/kwok/ of this clone. NODES (default 2)
# sets the fake node count at creation.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

usage() { echo "usage: hack/cluster.sh up|down|kubeconfig|status [NAME]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
cmd=$1
name=${2:-c5c3-dev}
case $name in
  *[!a-z0-9-]*|'') echo "hack/cluster.sh: cluster name must be lower-case letters, digits and '-': $name" >&2; exit 2 ;;
esac

# kwokctl keeps everything (config, PKI, pids, logs, etcd data) under its
# workdir; pointing it into the clone keeps the user's ~/.kwok untouched.
export KWOK_WORKDIR="$root/.cache/kwok"
dir="$KWOK_WORKDIR/clusters/$name"
kubeconfig="$dir/kubeconfig.yaml"
log() { echo "hack/cluster.sh: $*" >&2; }

tool() { "$here/tools.sh" --path "$1"; }

kwokctl() { "$(tool kwokctl)" --name "$name" "$@"; }

# running reports whether every component process recorded by kwokctl is alive.
running() {
  local pid f any=
  [ -d "$dir/pids" ] || return 1
  for f in "$dir"/pids/*.pid; do
    [ -e "$f" ] || return 1
    pid=$(cat "$f")
    kill -0 "$pid" 2>/dev/null || return 1
    any=1
  done
  [ -n "$any" ]
}

# api_ready asks the API server's /readyz through kubectl, with a short timeout.
api_ready() {
  "$(tool kubectl)" --kubeconfig "$kubeconfig" --request-timeout=5s get --raw /readyz >/dev/null 2>&1
}

wait_api() {
  local i
  for i in $(seq 1 60); do
    api_ready && return 0
    sleep 2
  done
  log "kube-apiserver of $name did not become ready; logs are in $dir/logs"
  return 1
}

# wait_nodes waits until the fake nodes report Ready (kwok sets it).
wait_nodes() {
  "$(tool kubectl)" --kubeconfig "$kubeconfig" wait --for=condition=Ready node --all --timeout=120s >/dev/null
}

# default_sa waits for the default ServiceAccount: the ServiceAccount admission
# refuses Pods in a namespace until kube-controller-manager created it.
default_sa() {
  local i
  for i in $(seq 1 60); do
    "$(tool kubectl)" --kubeconfig "$kubeconfig" get serviceaccount default -n default >/dev/null 2>&1 && return 0
    sleep 1
  done
  log "no default ServiceAccount after 60s; is kube-controller-manager running? see $dir/logs"
  return 1
}

up() {
  "$here/tools.sh" etcd kube-apiserver kube-controller-manager kube-scheduler kubectl kwok kwokctl
  if [ -f "$dir/kwok.yaml" ]; then
    if running && api_ready; then
      log "cluster $name is already running"
      echo "$kubeconfig"
      return 0
    fi
    # A stopped or half-running cluster (reboot, killed process): start what
    # is down; etcd keeps the previous objects.
    log "starting existing cluster $name"
    kwokctl stop cluster >/dev/null 2>&1 || true
    kwokctl start cluster --timeout 3m >&2
  else
    log "creating cluster $name in $dir"
    # --kubeconfig "" keeps the user's ~/.kube/config untouched; the cluster's
    # own kubeconfig is written into its directory regardless.
    kwokctl create cluster --runtime binary --kubeconfig "" --timeout 3m \
      --etcd-binary "$(tool etcd)" \
      --kube-apiserver-binary "$(tool kube-apiserver)" \
      --kube-controller-manager-binary "$(tool kube-controller-manager)" \
      --kube-scheduler-binary "$(tool kube-scheduler)" \
      --kwok-controller-binary "$(tool kwok)" >&2
  fi
  wait_api
  local nodes
  nodes=$("$(tool kubectl)" --kubeconfig "$kubeconfig" get nodes --no-headers 2>/dev/null | wc -l)
  if [ "$nodes" -lt "${NODES:-2}" ]; then
    kwokctl scale node --replicas "${NODES:-2}" >&2
  fi
  wait_nodes
  default_sa
  log "cluster $name is up ($("$(tool kubectl)" --kubeconfig "$kubeconfig" get nodes --no-headers | wc -l) fake nodes)"
  echo "$kubeconfig"
}

down() {
  if [ ! -d "$dir" ]; then
    log "cluster $name does not exist"
    return 0
  fi
  # kwokctl stops the components by their pid files and removes them; the
  # pids are read first so anything it missed is stopped here by the same
  # pids, never by process name.
  local f pid pids=()
  for f in "$dir"/pids/*.pid; do
    [ -e "$f" ] && pids+=("$(cat "$f")")
  done
  kwokctl delete cluster >&2 || log "kwokctl delete cluster failed; stopping the recorded pids"
  for pid in "${pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      log "stopping leftover pid $pid"
      kill "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$dir"
  log "cluster $name deleted"
}

case $cmd in
  up) up ;;
  down) down ;;
  kubeconfig)
    [ -f "$kubeconfig" ] || { log "cluster $name does not exist; run hack/cluster.sh up $name"; exit 1; }
    echo "$kubeconfig" ;;
  status)
    [ -d "$dir" ] || { log "cluster $name does not exist"; exit 1; }
    kwokctl get components ;;
  *) usage ;;
esac
