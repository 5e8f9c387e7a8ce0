#!/usr/bin/env bash
# The test command: builds the toolchain when missing, checks generated files,
# then vets, lints and tests every module of the workspace against a real
# kube-apiserver and etcd.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export GOFLAGS=${GOFLAGS:--buildvcs=false}

# Everything the suites start: envtest (etcd, kube-apiserver), the e2e
# control plane (hack/cluster.sh), helm for the chart tests and installs,
# the real ESO controller the e2e suite runs, the S3 server Glance stores in.
hack/tools.sh etcd kube-apiserver kube-controller-manager kube-scheduler kubectl kwok kwokctl controller-gen golangci-lint helm external-secrets versitygw vault
hack/debian.sh # the real servers the conformance suite starts
# The newer release's services (Debian sid, 2026.2) the conformance suites
# run against too, as a root filesystem (about 4 minutes once per machine).
hack/rootfs.sh sid >/dev/null
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
