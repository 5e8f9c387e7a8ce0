#!/usr/bin/env bash
# make bench: the benchmark harness (e2e/bench; docs/bench.md explains the
# figures). Builds what is missing, runs the Go micro-benchmarks and the
# scenarios on a real kube-apiserver + etcd, prints the table, writes
# .cache/bench/bench.json and compares with e2e/bench/baseline.json; exits
# non-zero when a figure regressed.
#   hack/bench.sh              full run: N = 1, 10, 100, 500, memory with 10,000
#                              unrelated Secrets and ConfigMaps, micro-benchmarks
#   hack/bench.sh --smoke      N = 10 only, compares the zero-write targets (hack/test.sh)
#   hack/bench.sh --baseline   full run, then rewrite e2e/bench/baseline.json with its figures
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export GOFLAGS=${GOFLAGS:--buildvcs=false}
out=.cache/bench
micro_packages=(./common/configartifact ./common/ini ./common/workload ./placement-operator/internal/render)

args=()
smoke=
case ${1:-} in
  "") ;;
  --smoke) smoke=1; args+=(-smoke) ;;
  --baseline) args+=(-write-baseline e2e/bench/baseline.json) ;;
  *) echo "usage: hack/bench.sh [--smoke|--baseline]" >&2; exit 2 ;;
esac

hack/tools.sh etcd kube-apiserver
KUBEBUILDER_ASSETS=$(hack/tools.sh --envtest-assets)
export KUBEBUILDER_ASSETS
mkdir -p "$out"
go build -o "$out/bench" ./e2e/cmd/bench

if [ -z "$smoke" ]; then
  echo "== micro-benchmarks: ${micro_packages[*]}" >&2
  # Build (in parallel) first, then run one package at a time, three runs
  # each, so no benchmark shares the cores with a compiler or another
  # benchmark; the report keeps the fastest run.
  go test -run '^$' -bench . -benchtime 1x "${micro_packages[@]}" >/dev/null
  go test -p 1 -run '^$' -bench . -benchmem -count 3 "${micro_packages[@]}" >"$out/micro.txt"
  args+=(-micro "$out/micro.txt")
fi
echo "== bench scenarios${smoke:+ (smoke)}" >&2
"$out/bench" "${args[@]}"
