#!/usr/bin/env bash
# make e2e-kind: the Placement e2e suite on kind clusters, for machines with
# a Docker engine. Not run on the project's own machines (no Docker there);
# see docs/placement/e2e.md#on-kind-make-e2e-kind.
#   E2E_PLACEMENT_IMAGE_REPOSITORY  a Placement image repository with the tags
#                                   2025.2 and 2026.1 (required)
#   KIND_VERSION                    kind to install with go install (v0.33.0)
# Needs root or sudo-less access to Debian's packages (hack/debian.sh) for the
# MariaDB server the suite runs on the host.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
: "${E2E_PLACEMENT_IMAGE_REPOSITORY:?set E2E_PLACEMENT_IMAGE_REPOSITORY to a Placement image repository with tags 2025.2 and 2026.1}"
command -v docker >/dev/null || { echo "hack/e2e-kind.sh: no docker command; use make test (kwok) instead" >&2; exit 1; }
docker info >/dev/null 2>&1 || { echo "hack/e2e-kind.sh: the Docker engine does not answer" >&2; exit 1; }

"$here/tools.sh" helm kubectl
"$here/debian.sh"
bin=$(go env GOPATH)/bin
command -v kind >/dev/null || GOBIN="$bin" go install "sigs.k8s.io/kind@${KIND_VERSION:-v0.33.0}"
export PATH="$bin:$PATH"

clusters=(e2e-placement e2e-placement-target)
cleanup() { for c in "${clusters[@]}"; do kind delete cluster --name "$c" >/dev/null 2>&1 || true; done; }
[ -n "${E2E_KEEP:-}" ] || trap cleanup EXIT
for c in "${clusters[@]}"; do
  kind get clusters 2>/dev/null | grep -qx "$c" || kind create cluster --name "$c" --wait 3m
done
# The host as the kind nodes see it: the kind network's gateway. The
# operator's webhooks and the MariaDB server listen there.
E2E_HOST_IP=$(docker network inspect kind -f '{{range .IPAM.Config}}{{if .Gateway}}{{.Gateway}} {{end}}{{end}}' | tr ' ' '\n' | grep -E '^[0-9.]+$' | head -1)
export E2E_PROVIDER=kind E2E_HOST_IP E2E_PLACEMENT_IMAGE_REPOSITORY
echo "hack/e2e-kind.sh: host address on the kind network: $E2E_HOST_IP"
cd "$root/e2e" && go test -count=1 -timeout 60m ./placement/ -v
