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
if [ $# -lt 1 ] || [ $# -gt 2 ]; then usage; fi
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

# kwokctl logs JSON lines; they go to a file and are shown only on failure.
kwokctl_log="$KWOK_WORKDIR/kwokctl-$name.log"
kwokctl() {
  mkdir -p "$KWOK_WORKDIR"
  # 9>&-: the components kwokctl starts must not hold up.lock (below).
  if ! "$(tool kwokctl)" --config "$here/kwokctl.yaml" --name "$name" "$@" >>"$kwokctl_log" 2>&1 9>&-; then
    log "kwokctl $* failed; last lines of $kwokctl_log:"
    tail -n 15 "$kwokctl_log" >&2
    return 1
  fi
}

# alive: the pid runs and is not a zombie awaiting its reaper.
alive() {
  case $(ps -o stat= -p "$1" 2>/dev/null) in
    ''|Z*) return 1 ;;
  esac
}

# running reports whether every component process recorded by kwokctl is alive.
running() {
  local f any=
  for f in "$dir"/pids/*.pid; do
    [ -e "$f" ] || return 1
    alive "$(cat "$f")" || return 1
    any=1
  done
  [ -n "$any" ]
}

# api_ready asks the API server's /readyz through kubectl, with a short timeout.
api_ready() {
  "$(tool kubectl)" --kubeconfig "$kubeconfig" --request-timeout=5s get --raw /readyz >/dev/null 2>&1
}

# The waits below allow minutes for what takes seconds on an idle machine:
# a busy one (the test jobs run side by side) starts the components slowly.
wait_api() {
  local _
  for _ in $(seq 1 150); do
    api_ready && return 0
    sleep 2
  done
  log "kube-apiserver of $name did not become ready in 5 minutes; logs are in $dir/logs"
  return 1
}

# wait_nodes waits until the fake nodes report Ready (kwok sets it).
wait_nodes() {
  "$(tool kubectl)" --kubeconfig "$kubeconfig" wait --for=condition=Ready node --all --timeout=5m >/dev/null
}

# default_sa waits for the default ServiceAccount: the ServiceAccount admission
# refuses Pods in a namespace until kube-controller-manager created it.
default_sa() {
  "$(tool kubectl)" --kubeconfig "$kubeconfig" wait --for=create serviceaccount/default -n default --timeout=5m >/dev/null && return 0
  log "no default ServiceAccount after 5 minutes; is kube-controller-manager running? see $dir/logs"
  return 1
}

# not_up says a cluster did not come up, with the last lines of its logs.
not_up() {
  log "cluster $name did not come up; its logs are in $dir/logs:"
  tail -n 3 "$dir"/logs/*.log >&2 || true
}

up() {
  local created=""
  "$here/tools.sh" etcd kube-apiserver kube-controller-manager kube-scheduler kubectl kwok kwokctl
  # kwokctl picks its components' ports as the ones free at creation and
  # binds them later: two clusters created at the same time (the e2e suites
  # run side by side) picked the same port. One cluster comes up at a time,
  # until its components listen; the lock goes with this process.
  mkdir -p "$KWOK_WORKDIR"
  exec 9>"$KWOK_WORKDIR/up.lock"
  flock 9
  if [ -f "$dir/kwok.yaml" ]; then
    if running && api_ready; then
      log "cluster $name is already running"
      echo "$kubeconfig"
      return 0
    fi
    # A stopped or half-running cluster (reboot, killed process): start what
    # is down; etcd keeps the previous objects.
    log "starting existing cluster $name"
    kwokctl stop cluster || true
    kwokctl start cluster --timeout 3m
    wait_api
  else
    log "creating cluster $name in $dir"
    created=1
    # --kubeconfig "" keeps the user's ~/.kube/config untouched; the cluster's
    # own kubeconfig is written into its directory regardless. A cluster
    # that did not come up is deleted: its configuration (the ports it
    # picked) would otherwise be what the next up starts again.
    if ! kwokctl create cluster --runtime binary --kubeconfig "" --timeout 3m \
      --etcd-binary "$(tool etcd)" \
      --kube-apiserver-binary "$(tool kube-apiserver)" \
      --kube-controller-manager-binary "$(tool kube-controller-manager)" \
      --kube-scheduler-binary "$(tool kube-scheduler)" \
      --kwok-controller-binary "$(tool kwok)" || ! wait_api; then
      not_up
      down
      return 1
    fi
  fi
  local nodes
  nodes=$("$(tool kubectl)" --kubeconfig "$kubeconfig" get nodes --no-headers 2>/dev/null | wc -l)
  if [ "$nodes" -lt "${NODES:-2}" ]; then
    # Pod IPs come from each node's podCIDR, and the nodes' own addresses
    # from nodeIPs: keep both on loopback so nothing the API server proxies
    # to (services/proxy) leaves this machine.
    kwokctl scale node --replicas "${NODES:-2}" \
      --param '.podCIDRs=["127.64.0.0/24"]' --param '.nodeIPs=["127.0.0.1"]'
  fi
  # A cluster this call created whose nodes or ServiceAccounts never came
  # is deleted too (its processes would otherwise run on with nobody to
  # stop them); an existing one is left for its owner to look at.
  if ! wait_nodes || ! default_sa; then
    not_up
    if [ -n "$created" ]; then down; fi
    return 1
  fi
  log "cluster $name is up ($("$(tool kubectl)" --kubeconfig "$kubeconfig" get nodes --no-headers | wc -l) fake nodes)"
  echo "$kubeconfig"
}

# gone waits up to 10s for a pid to exit.
gone() {
  local _
  for _ in $(seq 1 20); do
    alive "$1" || return 0
    sleep 0.5
  done
  return 1
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
    if [ -e "$f" ]; then pids+=("$(cat "$f")"); fi
  done
  kwokctl delete cluster || log "kwokctl delete cluster failed; stopping the recorded pids"
  for pid in "${pids[@]}"; do
    gone "$pid" && continue
    log "stopping leftover pid $pid"
    kill "$pid" 2>/dev/null || true
    gone "$pid" || kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$dir" "$kwokctl_log"
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
    for f in "$dir"/pids/*.pid; do
      [ -e "$f" ] || continue
      pid=$(cat "$f")
      state=stopped
      alive "$pid" && state="running (pid $pid)"
      printf '%-24s %s\n' "$(basename "$f" .pid)" "$state"
    done ;;
  *) usage ;;
esac
