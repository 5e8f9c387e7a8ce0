#!/usr/bin/env bash
# The test command: builds the toolchain when missing, checks generated files,
# then vets, lints and tests every module of the workspace against a real
# kube-apiserver and etcd.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export GOFLAGS=${GOFLAGS:--buildvcs=false}
# stage names the next step with the time since the start, so that a run's
# log shows where its time went.
stage() { echo "== $* ($((SECONDS / 60))m$((SECONDS % 60))s in)"; }

# On a fresh machine the set-up is most of the run, so its parts overlap:
# the Debian packages of the real servers the conformance suites start and
# the root filesystem of the newer release's services (Debian sid, 2026.2;
# about 4 minutes once per machine) come over the network beside the
# toolchain build, and the toolchain builds in two lanes, so that one lane
# compiles while the other downloads or links. Everything the suites start:
# envtest (etcd, kube-apiserver), the e2e control plane (hack/cluster.sh),
# helm for the chart tests and installs, promtool for the charts' alerting
# rules, the real ESO controller the e2e suites run, the S3 server Glance
# stores in, the OpenBao-compatible server.
setup_log=$(mktemp)
(hack/debian.sh && hack/rootfs.sh sid >/dev/null) >"$setup_log" 2>&1 &
setup=$!
# A failure ends the script; the set-up still running in the background ends
# with it (each variable is emptied once its job has been waited for).
late= late_log=
trap 'kill ${setup:-} ${kube:-} ${late:-} 2>/dev/null || true; rm -f "$setup_log" ${late_log:+"$late_log"}' EXIT
# The lanes take about the same CPU time (docs/decisions/toolchain.md has
# each tool's): the control plane's binaries in one, the rest in the other.
hack/tools.sh etcd kube-apiserver kube-controller-manager kube-scheduler kubectl &
kube=$!
hack/tools.sh controller-gen golangci-lint helm external-secrets kwok kwokctl versitygw
# Vault is needed by the Barbican tests only, promtool by the chart tests
# only (together about 15 CPU minutes to build): they build in the background
# at the lowest CPU priority while the other tests run, and the tests that
# need them run after wait_late.
late_log=$(mktemp)
nice -n 19 hack/tools.sh promtool vault >"$late_log" 2>&1 &
late=$!
wait "$kube"
kube=
if ! wait "$setup"; then
  setup=
  cat "$setup_log" >&2
  echo "installing the Debian packages or building the sid root filesystem failed (above)" >&2
  exit 1
fi
setup=
wait_late() {
  [ -n "$late" ] || return 0
  if ! wait "$late"; then
    late=
    cat "$late_log" >&2
    echo "building promtool or vault failed (above)" >&2
    exit 1
  fi
  late=
}
# The packages whose tests start the Vault server or run promtool.
needs_late='/common/testenv/openbao$|/barbican-operator(/|$)|/e2e/conformance/barbican$|/e2e/charts$'
# The operators' e2e suites (e2e/<dir>): each on its own control plane, run
# side by side.
suites='placement glance barbican'
KUBEBUILDER_ASSETS=$(hack/tools.sh --envtest-assets)
export KUBEBUILDER_ASSETS
lint=$(hack/tools.sh --path golangci-lint)

stage "generated files are up to date"
hack/generate.sh
if git rev-parse --git-dir >/dev/null 2>&1 && ! git diff --quiet -- '*.go' '*.yaml' charts docs/*/crd-reference.md '*/Dockerfile'; then
  git --no-pager diff --stat -- '*.go' '*.yaml' charts docs/*/crd-reference.md '*/Dockerfile'
  echo "generated files differ from the committed ones: run hack/generate.sh and commit" >&2
  exit 1
fi

stage "operator modules stand on their own (GOWORK=off)"
hack/standalone.sh

modules=$(go work edit -json | sed -n 's/.*"DiskPath": "\.\/\(.*\)".*/\1/p')
for mod in $modules; do
  stage "$mod: vet, lint"
  (cd "$mod" && go vet ./... && "$lint" run ./...)
done
# test_packages MODULE PATTERN runs the tests of the module's packages whose
# import path matches (grep -E) or, with -v, does not match PATTERN.
test_packages() {
  local mod=$1 pkgs parallel=()
  shift
  pkgs=$(cd "$mod" && go list ./...)
  pkgs=$(grep -E "$@" <<<"$pkgs" || true)
  [ -n "$pkgs" ] || return 0
  stage "$mod: test $(wc -l <<<"$pkgs") packages"
  # The e2e module's packages each own the machine while they run: a control
  # plane, MariaDB, Keystone and the services' API processes under uwsgi.
  # Side by side on two cores, their API processes were seen dying while
  # loading (a worker interrupted mid-import), so they run one at a time.
  [ "$mod" = e2e ] && parallel=(-p 1)
  # shellcheck disable=SC2086 # one word per package
  (cd "$mod" && go test -count=1 -timeout 30m "${parallel[@]}" $pkgs)
}
for mod in $modules; do
  test_packages "$mod" -v "$needs_late|/e2e/(${suites// /|})\$"
done
stage "e2e: conformance against Debian sid's services"
# Barbican's suite runs sid's barbican in its own pass already (the machine's
# has no barbican.wsgi.api).
(cd e2e && CONFORMANCE_DEBIAN=sid go test -count=1 -timeout 30m -p 1 ./conformance/placement/ ./conformance/glance/)
wait_late
# Most of a suite's time is waiting for its control plane, its operator and
# the pods' API processes; three side by side take little more than the
# longest alone, and load the machine as a busy cluster would (their waits
# follow progress, not a fixed deadline). Each prints its output when done.
stage "e2e: the operators' suites side by side"
# shellcheck disable=SC2046,SC2086 # one word per suite
(cd e2e && go test -count=1 -timeout 45m -p 3 $(printf './%s/ ' $suites))
stage "the tests that start the Vault server or run promtool"
for mod in $modules; do
  test_packages "$mod" "$needs_late"
done
stage "bench smoke"
hack/bench.sh --smoke
stage "done"
