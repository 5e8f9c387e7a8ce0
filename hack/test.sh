#!/usr/bin/env bash
# The test command: builds the toolchain when missing, checks generated files,
# then vets, lints and tests every module of the workspace against a real
# kube-apiserver and etcd.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export GOFLAGS=${GOFLAGS:--buildvcs=false}

# On a fresh machine the set-up is most of the run, so its parts overlap:
# the Debian packages of the real servers the conformance suites start and
# the root filesystem of the newer release's services (Debian sid, 2026.2;
# about 4 minutes once per machine) come over the network beside the
# toolchain build, and the toolchain builds in two lanes, so that one lane
# compiles while the other downloads or links. Everything the suites start:
# envtest (etcd, kube-apiserver), the e2e control plane (hack/cluster.sh),
# helm for the chart tests and installs, the real ESO controller the e2e
# suites run, the S3 server Glance stores in, the OpenBao-compatible server.
setup_log=$(mktemp)
(hack/debian.sh && hack/rootfs.sh sid >/dev/null) >"$setup_log" 2>&1 &
setup=$!
hack/tools.sh etcd kube-apiserver kube-controller-manager kube-scheduler kubectl kwok kwokctl &
kube=$!
hack/tools.sh controller-gen golangci-lint helm external-secrets versitygw vault
wait "$kube"
if ! wait "$setup"; then
  cat "$setup_log" >&2
  echo "installing the Debian packages or building the sid root filesystem failed (above)" >&2
  exit 1
fi
rm -f "$setup_log"
KUBEBUILDER_ASSETS=$(hack/tools.sh --envtest-assets)
export KUBEBUILDER_ASSETS
lint=$(hack/tools.sh --path golangci-lint)

echo "== generated files are up to date"
hack/generate.sh
if git rev-parse --git-dir >/dev/null 2>&1 && ! git diff --quiet -- '*.go' '*.yaml' charts docs/*/crd-reference.md '*/Dockerfile'; then
  git --no-pager diff --stat -- '*.go' '*.yaml' charts docs/*/crd-reference.md '*/Dockerfile'
  echo "generated files differ from the committed ones: run hack/generate.sh and commit" >&2
  exit 1
fi

echo "== operator modules stand on their own (GOWORK=off)"
hack/standalone.sh

modules=$(go work edit -json | sed -n 's/.*"DiskPath": "\.\/\(.*\)".*/\1/p')
for mod in $modules; do
  echo "== $mod: vet, lint"
  (cd "$mod" && go vet ./... && "$lint" run ./...)
done
for mod in $modules; do
  echo "== $mod: test"
  # The e2e module's packages each own the machine while they run: a control
  # plane, MariaDB, Keystone and the services' API processes under uwsgi.
  # Side by side on two cores, their API processes were seen dying while
  # loading (a worker interrupted mid-import), so they run one at a time.
  parallel=()
  [ "$mod" = e2e ] && parallel=(-p 1)
  (cd "$mod" && go test -count=1 -timeout 30m "${parallel[@]}" ./...)
  if [ "$mod" = e2e ]; then
    echo "== e2e: conformance against Debian sid's services"
    # Barbican's suite runs sid's barbican in the pass above already (the machine's
    # has no barbican.wsgi.api).
    (cd "$mod" && CONFORMANCE_DEBIAN=sid go test -count=1 -timeout 30m -p 1 ./conformance/placement/ ./conformance/glance/)
  fi
done
hack/bench.sh --smoke
