# Sourced by hack/kind/*.sh: where the tier's artifacts live, the pinned
# versions, and the container engine kind uses (podman when
# KIND_EXPERIMENTAL_PROVIDER=podman, else docker, kind's default).
hack=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=../versions.env
. "$hack/versions.env"
TOOLS_DIR=${C5C3_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/c5c3-operators/tools}
engine=docker
[ "${KIND_EXPERIMENTAL_PROVIDER:-}" != podman ] || engine=podman
log() { echo "hack/kind/$(basename "$0"): $*" >&2; }

# save_archive OUT IMAGE...: the images as one docker-archive (what `kind
# load image-archive` and containerd's import read).
save_archive() {
  local out=$1
  shift
  if [ "$engine" = podman ]; then
    podman save -q -m --format docker-archive -o "$out" "$@"
  else
    docker save -o "$out" "$@"
  fi
}
