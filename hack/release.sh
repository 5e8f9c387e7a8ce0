#!/usr/bin/env bash
# Releases one operator: make release OPERATOR=<name>-operator VERSION=x.y.z [DRY_RUN=1]
#   hack/release.sh <name>-operator x.y.z
# Refuses a dirty tree, a version without a dated entry in the operator's
# CHANGELOG.md, a chart whose version or appVersion is not the version, and a
# version already tagged. Then stamps the version into the binary (built from
# the operator's module alone against the common of this tree), the image
# (OCI labels) and the packaged chart, and writes into $DIST/<name>/x.y.z/
# (default dist/): the binary, the image tarball, the chart .tgz with its
# index.yaml entry, the CRDs as one file, and SHA256SUMS. Nothing outside that
# directory changes: another operator's artefacts and the tree stay as they
# were. Last, it creates the git tags <name>/vx.y.z and, when common changed
# since its last tag, common/vx.y.z (DRY_RUN=1 only prints them). Pushing the
# tags, the image and the chart is left to the publisher (docs/releasing.md).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=release.env
. "$root/hack/release.env"
die() { echo "release: $*" >&2; exit 1; }
op=${1:-}
version=${2:-}
[ -n "$op" ] && [ -n "$version" ] || die "usage: make release OPERATOR=<name>-operator VERSION=x.y.z [DRY_RUN=1]"
semver='^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?$'
[[ $version =~ $semver ]] || die "VERSION $version is not x.y.z (semantic version, no leading v)"
[ -d "$root/$op/cmd" ] && [ -d "$root/charts/$op" ] || die "no operator $op (want a directory $op/cmd and a chart charts/$op)"
cd "$root"
git rev-parse --git-dir >/dev/null 2>&1 || die "$root is not a git checkout"
dirty=$(git status --porcelain)
[ -z "$dirty" ] || die "the tree is not clean; commit or stash first:
$dirty"
changelog=$op/CHANGELOG.md
grep -Eq "^## \[${version//./\\.}\] - [0-9]{4}-[0-9]{2}-[0-9]{2}\$" "$changelog" ||
  die "$changelog has no entry '## [$version] - YYYY-MM-DD': write what the release changes first"
for key in version appVersion; do
  got=$(sed -n "s/^$key: *\"\{0,1\}\([^\"]*\)\"\{0,1\}\$/\1/p" "charts/$op/Chart.yaml")
  [ "$got" = "$version" ] || die "charts/$op/Chart.yaml $key is $got, not $version: the chart follows the operator's version"
done
tag=$op/v$version
! git rev-parse -q --verify "refs/tags/$tag" >/dev/null || die "$tag exists already: $op $version is released"

out=${DIST:-$root/dist}/$op/$version
rm -rf "$out"
mkdir -p "$out"
image=$REGISTRY/$op:$version
echo "== $op $version: binary and image $image"
VERSION=$version OUT_DIR=$out hack/image.sh "$op" "$image" >/dev/null
mv "$out/$op" "$out/$op-linux-amd64"
mv "$out/$op-image.tar" "$out/$op-$version-image.tar"

echo "== $op $version: chart"
helm=$(hack/tools.sh --path helm)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
cp -r charts/operator-lib "charts/$op" "$stage/"
rm -rf "$stage/$op/charts"
"$helm" dependency build "$stage/$op" >/dev/null
"$helm" package "$stage/$op" --version "$version" --app-version "$version" -d "$out" >/dev/null
"$helm" lint "$out/$op-$version.tgz" >/dev/null || die "helm lint of the packaged chart failed"
"$helm" repo index "$out" --url "$SOURCE/releases/download/$tag"
for f in "charts/$op/crds/"*.yaml; do echo "---"; cat "$f"; done >"$out/$op-$version-crds.yaml"
(cd "$out" && sha256sum -- * >SHA256SUMS)

tags=("$tag")
last=$(git tag --list 'common/v*' --sort=-v:refname | head -n1)
if [ -z "$last" ]; then
  tags+=(common/v0.1.0)
elif ! git diff --quiet "$last" HEAD -- common; then
  IFS=. read -r major minor patch <<<"${last#common/v}"
  tags+=("common/v$major.$minor.$((${patch%%-*} + 1))")
fi
echo "== $op $version: artefacts in $out"
(cd "$out" && ls -1)
if [ -n "${DRY_RUN:-}" ]; then
  echo "== dry run: would tag $(git rev-parse HEAD) with: ${tags[*]}"
  exit 0
fi
for t in "${tags[@]}"; do
  git tag -a "$t" -m "$op $version" || die "tagging $t"
done
echo "== tagged ${tags[*]}; publish with: git push origin ${tags[*]} (then the image and chart, docs/releasing.md)"
