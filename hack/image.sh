#!/usr/bin/env bash
# Builds an operator image without a container engine: a static binary on an
# empty base, written as an image tarball (docker/podman load, kind load
# image-archive). The binary is built from the operator's module alone
# (GOWORK=off, against the common of this tree) with its version, commit and
# date stamped in, and the image carries the OCI labels.
#   hack/image.sh [OPERATOR] [TAG]   e.g. hack/image.sh placement-operator placement-operator:dev
# Environment: VERSION (default dev), OUT_DIR (default bin/).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=release.env
. "$root/hack/release.env"
op=${1:-placement-operator}
version=${VERSION:-dev}
tag=${2:-$op:$version}
out=${OUT_DIR:-$root/bin}
[ -d "$root/$op/cmd" ] || { echo "image.sh: no operator $op" >&2; exit 1; }
if commit=$(git -C "$root" rev-parse HEAD 2>/dev/null); then
  # The commit's date, so that building one commit twice gives one binary.
  created=$(TZ=UTC git -C "$root" log -1 --date=format-local:%Y-%m-%dT%H:%M:%SZ --format=%cd)
  [ -z "$(git -C "$root" status --porcelain -- common "$op")" ] || commit=$commit-dirty
else
  commit=unknown created=$(date -u +%Y-%m-%dT%H:%M:%SZ)
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
ldflags="-s -w -X $VERSION_PKG.Version=$version -X $VERSION_PKG.Commit=$commit -X $VERSION_PKG.Date=$created"
# The image says linux/amd64 (hack/imagebuild), whatever the host is.
(cd "$root/$op" && GOWORK=off CGO_ENABLED=0 GOOS=linux GOARCH=amd64 go build -trimpath -ldflags "$ldflags" -o "$out/$op" ./cmd)
label=org.opencontainers.image
(cd "$root/hack/imagebuild" && go run . --binary "$out/$op" --tag "$tag" --out "$out/$op-image.tar" \
  --created "$created" --label "$label.title=$op" --label "$label.version=$version" \
  --label "$label.revision=$commit" --label "$label.created=$created" \
  --label "$label.source=$SOURCE" --label "$label.licenses=$LICENSES")
echo "$out/$op-image.tar"
