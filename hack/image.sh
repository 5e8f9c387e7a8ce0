#!/usr/bin/env bash
# Builds an operator image without a container engine: a static binary on an
# empty base, written as an image tarball (docker/podman load, kind load image-archive).
#   hack/image.sh [OPERATOR] [TAG]   e.g. hack/image.sh placement-operator placement-operator:dev
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
op=${1:-placement-operator}
tag=${2:-$op:dev}
mkdir -p "$root/bin"
(cd "$root/$op" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o "$root/bin/$op" ./cmd)
(cd "$root/hack/imagebuild" && go run . --binary "$root/bin/$op" --tag "$tag" --out "$root/bin/$op-image.tar")
echo "$root/bin/$op-image.tar"
