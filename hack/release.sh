#!/usr/bin/env bash
# Releases one operator: make release OPERATOR=<name>-operator VERSION=x.y.z [DRY_RUN=1]
#   hack/release.sh <name>-operator x.y.z
# Refuses a dirty tree, a version without a dated entry in the operator's
# CHANGELOG.md, a chart whose version or appVersion is not the version, a
# version already tagged among the local tags (fetch the tags first), and a
# real release without a git identity for the tags. Then stamps the version into the binary (built from
# the operator's module alone against the common of this tree), the image
# (OCI labels) and the packaged chart, and writes into $DIST/<name>/x.y.z/
# (default dist/): the binary, the image tarball, the chart .tgz with its
# index.yaml entry, the CRDs as one file, and SHA256SUMS. Nothing outside that
# directory changes: another operator's artefacts and the tree stay as they
# were. Last, it creates the git tags <name>/vx.y.z and, for each shared
# module (common, testsupport) that changed since its last tag,
# <module>/vx.y.z (DRY_RUN=1 only prints them). Pushing the
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

[ -n "${DRY_RUN:-}" ] || git var GIT_COMMITTER_IDENT >/dev/null 2>&1 ||
  die "git has no identity to write the annotated tags with: set user.name and user.email"
hack/tools.sh helm
helm=$(hack/tools.sh --path helm)

# Everything is built into a directory beside the final one and moved into
# place once complete: a failed release leaves no partial artefacts and
# keeps those of an earlier run of the same version.
dist=${DIST:-$root/dist}
mkdir -p "$dist/$op"
dist=$(cd "$dist" && pwd)
out=$dist/$op/$version
work=$(mktemp -d "$dist/$op/.$version.XXXXXX")
stage=$(mktemp -d)
trap 'rm -rf "$work" "$stage"' EXIT
image=$REGISTRY/$op:$version
echo "== $op $version: binary and image $image"
VERSION=$version OUT_DIR=$work hack/image.sh "$op" "$image" >/dev/null
mv "$work/$op" "$work/$op-linux-amd64"
mv "$work/$op-image.tar" "$work/$op-$version-image.tar"

echo "== $op $version: chart"
cp -r charts/operator-lib "charts/$op" "$stage/"
rm -rf "$stage/$op/charts"
"$helm" dependency build "$stage/$op" >/dev/null
"$helm" package "$stage/$op" --version "$version" --app-version "$version" -d "$work" >/dev/null
if ! lint=$("$helm" lint "$work/$op-$version.tgz" 2>&1); then
  echo "$lint" >&2
  die "helm lint of the packaged chart failed (above)"
fi
"$helm" repo index "$work" --url "$SOURCE/releases/download/$op/v$version"
for f in "charts/$op/crds/"*.yaml; do echo "---"; cat "$f"; done >"$work/$op-$version-crds.yaml"
(cd "$work" && sha256sum -- * >SHA256SUMS)
chmod 0755 "$work"
rm -rf "$out"
mv "$work" "$out"

tags=("$tag")
# The shared modules the operator requires: each tagged when it changed
# since its last tag.
for mod in common testsupport; do
  last=$(git tag --list "$mod/v*" --sort=-v:refname | head -n1)
  if [ -z "$last" ]; then
    tags+=("$mod/v0.1.0")
  elif ! git diff --quiet "$last" HEAD -- "$mod"; then
    IFS=. read -r major minor patch <<<"${last#"$mod"/v}"
    tags+=("$mod/v$major.$minor.$((${patch%%-*} + 1))")
  fi
done
echo "== $op $version: artefacts in $out"
(cd "$out" && ls -1)
if [ -n "${DRY_RUN:-}" ]; then
  echo "== dry run: would tag $(git rev-parse HEAD) with: ${tags[*]}"
  exit 0
fi
made=()
for t in "${tags[@]}"; do
  if ! git tag -a "$t" -m "$op $version"; then
    [ ${#made[@]} -eq 0 ] || git tag -d "${made[@]}" >/dev/null
    die "tagging $t failed; no tag was left"
  fi
  made+=("$t")
done
echo "== tagged ${tags[*]}; publish with: git push origin ${tags[*]} (then the image and chart, docs/releasing.md)"
