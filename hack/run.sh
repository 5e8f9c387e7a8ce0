#!/usr/bin/env bash
# make run: the Placement, Glance and Barbican operators on a local kwok control plane.
#   hack/run.sh [start]   cluster up, CRDs, demo inputs, stand-ins, operators,
#                         sample Placement, sample Glance with two GlanceBackends,
#                         sample Barbican with a store on a local Vault
#   hack/run.sh stop      stop the operator and the stand-ins, delete the cluster
# The real External Secrets Operator (built from its module) writes the
# credential Secrets from a fake-provider store. mariadb-operator is played by
# stand-ins (e2e/cmd/standins) that create the schema, user and grant on a real
# MariaDB server they start on loopback. The same process runs
# the operator's db-sync Job and placement-api pods as real processes (Debian's
# placement under uwsgi, e2e/localrun), and the operator probes that local API
# through the Placement's probe-URL annotation (--probe-url-annotation).
# The Glance operator runs next to it on the same cluster: the stand-ins
# process also starts a real S3 server (versitygw, 127.0.0.1:9000, the
# buckets of the sample GlanceBackends; s3.glance-demo.svc resolves to it
# inside the pods) and runs Glance's db-sync Job and glance-api (Debian's)
# the same way, so the sample Glance turns Ready too.
# The Barbican operator runs there too, with a sample Barbican whose default
# BarbicanSecretStore is a brownfield store on a real OpenBao-compatible
# server (Vault, from the tool cache) that the stand-ins start on loopback
# and set up (KV v2 mount barbican, AppRole barbican). The store controller
# logs in to it for real, and the Barbican projects the store into its
# config Secret. Its db-sync Job and barbican-api run the same way, inside
# the root filesystem of Debian sid (barbican 23, hack/rootfs.sh; bookworm's
# barbican has no barbican.wsgi.api), so the sample Barbican turns Ready too.
# Needs root (each pod's command gets its own mount namespace), the Debian
# packages hack/debian.sh installs and that root filesystem (about four
# minutes the first time). CLUSTER names the cluster (default
# c5c3-dev); WAIT is how many seconds to watch the conditions (default 180).
#
# Manifests go through kubectl, built from k8s.io/kubernetes like the other
# kube binaries (hack/tools.sh kubectl): a developer needs it anyway to look
# at the cluster, and it brings server-side apply (the ESO CRDs exceed the
# client-side apply annotation limit) and `kubectl wait` without code of ours.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
cluster=${CLUSTER:-c5c3-dev}
state="$root/.cache/run/$cluster"
ns=placement-demo
sample="$root/placement-operator/config/samples/placement_v1alpha1_placement.yaml"
processes=(external-secrets standins placement-operator glance-operator barbican-operator)
glance_ns=glance-demo
glance_samples="$root/glance-operator/config/samples"
barbican_ns=barbican-demo
barbican_samples="$root/barbican-operator/config/samples"

kubeconfig=
kubectl=

log() { echo "hack/run.sh: $*" >&2; }
kc() { "$kubectl" --kubeconfig "$kubeconfig" "$@"; }

# alive: the pid runs and is not a zombie awaiting its reaper.
alive() {
  case $(ps -o stat= -p "$1" 2>/dev/null) in
    ''|Z*) return 1 ;;
  esac
}

# stop_process ends one process this script started, by its recorded pid.
stop_process() {
  local name=$1 pidfile="$state/$1.pid" pid _
  [ -f "$pidfile" ] || return 0
  pid=$(cat "$pidfile")
  if alive "$pid"; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 20); do
      alive "$pid" || break
      sleep 0.5
    done
    if alive "$pid"; then
      log "$name (pid $pid) ignored SIGTERM; killing it"
      kill -9 "$pid" 2>/dev/null || true
    fi
    log "stopped $name (pid $pid)"
  fi
  rm -f "$pidfile"
}

stop() {
  local p
  for p in "${processes[@]}"; do stop_process "$p"; done
  "$here/cluster.sh" down "$cluster"
}

# start_process runs a built binary in the background, logging to a file.
start_process() {
  local name=$1
  shift
  nohup "$state/bin/$name" "$@" >"$state/$name.log" 2>&1 &
  echo $! >"$state/$name.pid"
  log "started $name (pid $!), log $state/$name.log"
}

# conditions prints an object's conditions, one tab-separated line each:
# conditions [namespace kind name], the Placement by default.
conditions() {
  kc -n "${1:-$ns}" get "${2:-placement}" "${3:-placement}" -o \
    jsonpath='{range .status.conditions[*]}{.type}{"\t"}{.status}{"\t"}{.reason}{"\t"}{.message}{"\n"}{end}' 2>/dev/null || true
}

table() {
  awk -F'\t' 'BEGIN { printf "  %-20s %-7s %-26s %s\n", "TYPE", "STATUS", "REASON", "MESSAGE" }
    NF { printf "  %-20s %-7s %-26s %s\n", $1, $2, $3, $4 }'
}

# settled: Ready is True.
settled() {
  awk -F'\t' '$1 == "Ready" && $2 == "True" { ok = 1 } END { exit !ok }'
}

start() {
  mkdir -p "$state/bin"
  [ "$(id -u)" -eq 0 ] || { log "make run needs root: the pod runner gives each pod command its own mount namespace"; exit 1; }
  "$here/debian.sh"
  local barbican_root
  barbican_root=$("$here/rootfs.sh" sid)
  kubeconfig=$("$here/cluster.sh" up "$cluster")
  kubectl=$("$here/tools.sh" --path kubectl)

  log "installing CRDs"
  local crds=("$root"/placement-operator/config/crd/*.yaml "$root"/glance-operator/config/crd/*.yaml "$root"/barbican-operator/config/crd/*.yaml)
  # The real ESO controller watches its other kinds too (push secrets,
  # generators): all of its CRDs.
  local listed
  listed=$("$here/crds.sh" --all-eso) # its own line: a failure stops make run
  mapfile -t -O "${#crds[@]}" crds <<<"$listed"
  local args=() f
  for f in "${crds[@]}"; do args+=(-f "$f"); done
  kc apply --server-side --force-conflicts "${args[@]}" >/dev/null
  kc wait --for=condition=Established --timeout=60s "${args[@]}" >/dev/null

  # Rebuilt on every start so a code change is picked up; run as binaries (not
  # `go run`) so the recorded pid is the process itself and stop can end it.
  log "building the operator and the stand-ins"
  (cd "$root" && go build -o "$state/bin/placement-operator" ./placement-operator/cmd &&
    go build -o "$state/bin/glance-operator" ./glance-operator/cmd &&
    go build -o "$state/bin/barbican-operator" ./barbican-operator/cmd &&
    go build -o "$state/bin/standins" ./e2e/cmd/standins)
  local p
  for p in "${processes[@]}"; do stop_process "$p"; done
  rm -f "$state/mariadb.port"
  "$here/tools.sh" external-secrets
  ln -sf "$("$here/tools.sh" --path external-secrets)" "$state/bin/external-secrets"
  # Only the reconcilers of the kinds in use (hack/eso.flags, shared with the e2e suite).
  local eso_flags=()
  read -r -d '' -a eso_flags <"$here/eso.flags" || true # split on whitespace, as the e2e suite does
  KUBECONFIG=$kubeconfig start_process external-secrets --metrics-addr=127.0.0.1:18090 "${eso_flags[@]}"
  "$here/tools.sh" versitygw vault
  # The stand-ins write the Barbican store's Secrets into its namespace.
  kc apply --server-side -f "$here/run/barbican-demo.yaml" >/dev/null
  rm -f "$state/vault/url"
  start_process standins --kubeconfig "$kubeconfig" --mariadb-port-file "$state/mariadb.port" --run-pods --secret-stores=false \
    --s3-port 9000 --s3-access-key demo-s3 --s3-secret-key demo-s3-secret --s3-buckets images-fast,images-archive \
    --local-hosts "s3.$glance_ns.svc,s3.$glance_ns.svc.cluster.local" \
    --vault-dir "$state/vault" --vault-namespace "$barbican_ns" --barbican-root "$barbican_root"
  local _
  for _ in $(seq 1 120); do
    [ -s "$state/mariadb.port" ] && break
    alive "$(cat "$state/standins.pid")" || { tail -n 20 "$state/standins.log" >&2; exit 1; }
    sleep 0.5
  done
  [ -s "$state/mariadb.port" ] || { log "the local MariaDB did not start; see $state/standins.log"; exit 1; }
  log "local MariaDB on 127.0.0.1:$(cat "$state/mariadb.port")"
  for _ in $(seq 1 120); do
    [ -s "$state/vault/url" ] && break
    alive "$(cat "$state/standins.pid")" || { tail -n 20 "$state/standins.log" >&2; exit 1; }
    sleep 0.5
  done
  [ -s "$state/vault/url" ] || { log "the local Vault did not start; see $state/standins.log"; exit 1; }
  log "local Vault on $(cat "$state/vault/url")"

  log "creating namespaces $ns and $glance_ns, ClusterSecretStore, MariaDBs and credential Secrets"
  kc apply --server-side -f "$here/run/placement-demo.yaml" -f "$here/run/glance-demo.yaml" >/dev/null
  store
  kc apply --server-side -f "$here/run/placement-credentials.yaml" -f "$here/run/glance-credentials.yaml" \
    -f "$here/run/barbican-credentials.yaml" >/dev/null

  # Loopback only, like the control plane (hack/kwokctl.yaml). The operator
  # runs outside the cluster network: its health probe goes to the local
  # placement-api the pod runner names in the probe-URL annotation.
  start_process placement-operator --kubeconfig "$kubeconfig" --enable-webhooks=false \
    --metrics-bind-address=127.0.0.1:18080 --health-probe-bind-address=127.0.0.1:18081 --probe-url-annotation
  start_process glance-operator --kubeconfig "$kubeconfig" --enable-webhooks=false \
    --metrics-bind-address=127.0.0.1:18082 --health-probe-bind-address=127.0.0.1:18083 --probe-url-annotation
  start_process barbican-operator --kubeconfig "$kubeconfig" --enable-webhooks=false \
    --metrics-bind-address=127.0.0.1:18084 --health-probe-bind-address=127.0.0.1:18085 --probe-url-annotation
  local port f
  port=$(cat "$state/mariadb.port")
  for f in "$sample" "$glance_samples/glance_v1alpha1_glance.yaml" "$barbican_samples/barbican_v1alpha1_barbican.yaml"; do
    log "applying $f (database port: the local MariaDB's)"
    sed "s/^  database:\$/  database:\n    port: $port/" "$f" | kc apply --server-side -f - >/dev/null
  done
  kc apply --server-side -f "$glance_samples/glance_v1alpha1_glancebackend.yaml" >/dev/null
  sed "s#url: https://openbao.example.org:8200#url: $(cat "$state/vault/url")#" "$barbican_samples/barbican_v1alpha1_barbicansecretstore.yaml" |
    kc apply --server-side -f - >/dev/null
  watch_placement "${WAIT:-180}"
  watch_glance "${WAIT:-180}"
  watch_barbican "${WAIT:-180}"
  summary
}

# store creates the ClusterSecretStore (ESO's fake provider) holding both
# credentials, with random passwords, once; a rerun keeps them so the
# operator sees no rotation. ESO validates it and the ExternalSecrets of
# hack/run/placement-credentials.yaml write the Secrets from it.
store() {
  kc get clustersecretstore openbao-cluster-store >/dev/null 2>&1 && return 0
  kc apply --server-side -f - >/dev/null <<EOF
apiVersion: external-secrets.io/v1
kind: ClusterSecretStore
metadata:
  name: openbao-cluster-store
spec:
  provider:
    fake:
      data:
        - key: $ns/placement-db
          value: '{"username":"placement","password":"$(password)"}'
        - key: $ns/placement-keystone
          value: '{"password":"$(password)"}'
        - key: $glance_ns/glance-db
          value: '{"username":"glance","password":"$(password)"}'
        - key: $glance_ns/glance-keystone
          value: '{"password":"$(password)"}'
        - key: $barbican_ns/barbican-db
          value: '{"username":"barbican","password":"$(password)"}'
        - key: $barbican_ns/barbican-keystone
          value: '{"password":"$(password)"}'
EOF
}

password() { od -An -N18 -tx1 /dev/urandom | tr -d ' \n'; }

# watch_placement prints the condition table whenever it changes, until the
# conditions settle or the timeout passes.
watch_placement() {
  local deadline=$((SECONDS + $1)) last='' now p
  log "watching Placement $ns/placement (up to $1s)"
  while :; do
    for p in "${processes[@]}"; do
      if ! alive "$(cat "$state/$p.pid")"; then
        log "$p exited; last lines of $state/$p.log:"
        tail -n 20 "$state/$p.log" >&2
        return 1
      fi
    done
    now=$(conditions)
    if [ -n "$now" ] && [ "$now" != "$last" ]; then
      echo "[$(date +%T)] Placement $ns/placement"
      table <<<"$now"
      last=$now
    fi
    if [ -n "$now" ] && settled <<<"$now"; then
      SETTLED=1
      return 0
    fi
    if [ $SECONDS -ge $deadline ]; then
      SETTLED=0
      return 0
    fi
    sleep 2
  done
}

# watch_glance waits until the Glance is Ready (or the timeout passes) and
# prints its and its backends' conditions.
watch_glance() {
  local deadline=$((SECONDS + $1)) now b
  log "watching Glance $glance_ns/glance (up to $1s)"
  GLANCE_READY=0
  while :; do
    now=$(conditions "$glance_ns" glance glance)
    if grep -q $'^Ready\tTrue' <<<"$now"; then
      GLANCE_READY=1
      break
    fi
    [ $SECONDS -ge $deadline ] && break
    sleep 2
  done
  echo "[$(date +%T)] Glance $glance_ns/glance"
  table <<<"$now"
  for b in fast archive; do
    echo "  GlanceBackend $b:"
    conditions "$glance_ns" glancebackend "$b" | table | sed 's/^/  /'
  done
}

# watch_barbican waits until the Barbican is Ready (or the timeout passes)
# and prints its and its store's conditions.
watch_barbican() {
  local deadline=$((SECONDS + $1)) now
  log "watching Barbican $barbican_ns/barbican (up to $1s)"
  BARBICAN_REACHED=0
  while :; do
    now=$(conditions "$barbican_ns" barbican barbican)
    if grep -q $'^Ready\tTrue' <<<"$now"; then
      BARBICAN_REACHED=1
      break
    fi
    [ $SECONDS -ge $deadline ] && break
    sleep 2
  done
  echo "[$(date +%T)] Barbican $barbican_ns/barbican"
  table <<<"$now"
  echo "  BarbicanSecretStore vault:"
  conditions "$barbican_ns" barbicansecretstore vault | table | sed 's/^/  /'
}

summary() {
  echo
  if [ "${SETTLED:-0}" = 1 ]; then
    echo "The Placement is Ready: the schema and its user exist on the local MariaDB, the"
    echo "db-sync Job's script ran for real against it, and Debian's placement, under uwsgi"
    echo "with the Deployment's command and the image's WSGI entry point, answers the probe."
  else
    echo "The Placement did not become Ready within ${WAIT:-180}s; see the logs below."
  fi
  echo "The pods themselves are kwok's: the stand-ins process runs their commands here."
  echo
  if [ "${GLANCE_READY:-0}" = 1 ]; then
    echo "The Glance is Ready: its db-sync Job (glance-manage db sync, load_metadefs) ran"
    echo "for real, and Debian's glance-api, started from the Deployment's command with"
    echo "both S3 stores on the local S3 server (127.0.0.1:9000), answers the probe."
  else
    echo "The Glance did not become Ready within ${WAIT:-180}s; see the logs below."
  fi
  echo
  if [ "${BARBICAN_REACHED:-0}" = 1 ]; then
    echo "The Barbican is Ready: its store logged in to the local Vault ($(cat "$state/vault/url"))"
    echo "with its AppRole and holds every capability; the db-sync Job (barbican-manage db"
    echo "upgrade) ran for real, and Debian sid's barbican-api under uwsgi, started from the"
    echo "Deployment's command with the store projected, answers the probe."
  else
    echo "The Barbican did not become Ready within ${WAIT:-180}s; see the logs below."
  fi
  echo
  echo "Logs:     $state/placement-operator.log, $state/glance-operator.log, $state/barbican-operator.log"
  echo "          $state/standins.log (stand-ins, local MariaDB, pod runner)"
  echo "          $root/.cache/kwok/clusters/$cluster/logs/ (control plane)"
  echo "kubectl:  $kubectl --kubeconfig $kubeconfig get placement,glance,glancebackend,barbican,barbicansecretstore -A"
  echo "Metrics:  http://127.0.0.1:18080/metrics (Placement), http://127.0.0.1:18082/metrics (Glance),"
  echo "          http://127.0.0.1:18084/metrics (Barbican)"
  echo "Stop:     make stop   (hack/run.sh stop)"
  [ "${SETTLED:-0}" = 1 ] && [ "${GLANCE_READY:-0}" = 1 ] && [ "${BARBICAN_REACHED:-0}" = 1 ]
}

case ${1:-start} in
  start) start ;;
  stop) stop ;;
  *) echo "usage: hack/run.sh [start|stop]" >&2; exit 2 ;;
esac
