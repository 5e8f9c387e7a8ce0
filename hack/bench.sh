#!/usr/bin/env bash
# make bench: the benchmark harness (e2e/bench; docs/bench.md explains the
# figures). Builds what is missing, runs the Go micro-benchmarks and the
# scenarios of each operator on a real kube-apiserver + etcd, prints the
# tables, writes .cache/bench/<operator>.json and compares with the
# operator's committed baseline e2e/bench/baselines/<operator>.json; exits
# non-zero when a figure regressed.
#   hack/bench.sh [OPERATOR...]             full run: N = 1, 10, 100, 500, memory with
#                                           10,000 unrelated Secrets and ConfigMaps,
#                                           micro-benchmarks (with placement)
#   hack/bench.sh --smoke [OPERATOR...]     N = 10 only, side by side, compares the zero targets (hack/test.sh)
#   hack/bench.sh --baseline [OPERATOR...]  full run, then rewrite each operator's baseline
# OPERATOR is placement, glance or barbican; none means all three.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export GOFLAGS=${GOFLAGS:--buildvcs=false}
out=.cache/bench
micro_packages=(./common/framework/configartifact ./common/lib/ini ./common/lib/workload ./placement-operator/internal/render)

mode=
case ${1:-} in
  --smoke|--baseline) mode=$1; shift ;;
  -*) echo "usage: hack/bench.sh [--smoke|--baseline] [placement|glance|barbican ...]" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || set -- placement glance barbican

hack/tools.sh etcd kube-apiserver
KUBEBUILDER_ASSETS=$(hack/tools.sh --envtest-assets)
export KUBEBUILDER_ASSETS
mkdir -p "$out"
go build -o "$out/bench" ./e2e/cmd/bench

failed=() smoke_ops=() smoke_pids=()
for op in "$@"; do
  args=(-operator "$op" -out "$out/$op.json" -baseline "e2e/bench/baselines/$op.json")
  case $mode in
    --smoke)
      # Smoke runs mostly wait (a control plane starting, an informer's
      # resync): they run side by side, each with its own work directory
      # (kubeconfig, bench.log), and print their tables when done.
      mkdir -p "$out/$op"
      echo "== $op: bench scenarios (--smoke)" >"$out/$op/smoke.txt"
      "$out/bench" "${args[@]}" -smoke -dir "$out/$op" >>"$out/$op/smoke.txt" 2>&1 &
      smoke_ops+=("$op") smoke_pids+=("$!")
      continue ;;
    --baseline) args+=(-write-baseline "e2e/bench/baselines/$op.json") ;;
  esac
  if [ "$op" = placement ]; then
    echo "== micro-benchmarks: ${micro_packages[*]}" >&2
    # Build (in parallel) first, then run one package at a time, three runs
    # each, so no benchmark shares the cores with a compiler or another
    # benchmark; the report keeps the fastest run.
    go test -run '^$' -bench . -benchtime 1x "${micro_packages[@]}" >/dev/null
    go test -p 1 -run '^$' -bench . -benchmem -count 3 "${micro_packages[@]}" >"$out/micro.txt"
    args+=(-micro "$out/micro.txt")
  fi
  echo "== $op: bench scenarios${mode:+ ($mode)}" >&2
  "$out/bench" "${args[@]}" || failed+=("$op")
done
for i in "${!smoke_pids[@]}"; do
  wait "${smoke_pids[$i]}" || failed+=("${smoke_ops[$i]}")
  cat "$out/${smoke_ops[$i]}/smoke.txt"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "hack/bench.sh: figures regressed or the run failed: ${failed[*]}" >&2
  exit 1
fi
