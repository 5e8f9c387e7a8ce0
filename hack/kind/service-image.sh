#!/usr/bin/env bash
# An OpenStack service image of the real-node tier, from Debian's packages
# (nothing pulled from a registry): the service, uwsgi with its python3
# and http plugins, the drivers the operator's rendered configuration
# names, and the entry point the operator's command runs, as a non-root
# user with the uid the operator's pods run as. Cached by its inputs;
# prints the image tarball (docker-archive) for `kind load image-archive`.
#   hack/kind/service-image.sh SERVICE [SUITE]   e.g. placement sid
# The image is localhost/c5c3-kind/SERVICE:SUITE. Needs root (mmdebstrap)
# and the container engine of hack/kind/cluster.sh.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
root=$(dirname "$hack")
service=${1:?hack/kind/service-image.sh SERVICE [SUITE]}
suite=${2:-sid}

# What each service's pods run: the packages, the entry point the
# operator's uwsgi command names (or none when it loads a module), the uid.
case $service in
placement)
  packages=(python3-placement placement-common python3-pymysql python3-pymemcache)
  entry=$root/placement-operator/image/placement-api
  uid=$(sed -n 's/^\tRunAsID *= \([0-9]*\)$/\1/p' "$root/placement-operator/internal/render/workload.go")
  ;;
*) log "unknown service $service (known: placement)"; exit 2 ;;
esac
[ -n "$uid" ] || { log "no RunAsID for $service in its operator's render package"; exit 1; }
packages+=(uwsgi-core uwsgi-plugin-python3)

key=$(cat "$0" "$here/lib.sh" "$entry" | cat - <(printf '%s\n' "$suite" "$ROOTFS_EPOCH" "$uid" "${packages[@]}") | sha256sum | cut -c1-12)
image=localhost/c5c3-kind/$service:$suite
tar="$TOOLS_DIR/kind/images/$service-$suite-$key.tar"
if [ -s "$tar" ]; then
  echo "$tar"
  exit 0
fi
[ "$(id -u)" -eq 0 ] || { log "building the image needs root (mmdebstrap)"; exit 1; }
log "building $image from Debian $suite (a minute or two, once per change)"
mkdir -p "$TOOLS_DIR/kind"
work=$(mktemp -d "$TOOLS_DIR/kind/service-XXXXXX")
trap 'rm -rf "$work"' EXIT

# uwsgi: Debian builds http and python3 as plugins; the operator's command
# expects a uwsgi with them built in (as a pip-installed one), so the
# image's uwsgi on PATH loads them first.
mmdebstrap --quiet --variant=minbase --mode=root --aptopt='Acquire::Check-Valid-Until "false"' \
  --include="$(IFS=,; echo "${packages[*]}")" \
  --customize-hook="install -D -m 0755 \"$entry\" \"\$1/var/lib/openstack/bin/$(basename "$entry")\"" \
  --customize-hook='printf "%s\n" "#!/bin/sh" "exec /usr/bin/uwsgi-core --plugin http,python3 \"\$@\"" >"$1/usr/local/bin/uwsgi" && chmod 0755 "$1/usr/local/bin/uwsgi"' \
  --customize-hook="echo \"$service-api:x:$uid:$uid::/var/lib/openstack:/usr/sbin/nologin\" >>\"\$1/etc/passwd\"" \
  --customize-hook="echo \"$service-api:x:$uid:\" >>\"\$1/etc/group\"" \
  --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/usr/share/doc/* "$1"/usr/share/man/* "$1"/usr/share/locale/*' \
  "$suite" "$work/root.tar" >&2
$engine import "$work/root.tar" "$image-rootfs" >/dev/null
mkdir -p "$work/ctx"
printf '%s\n' "FROM $image-rootfs" "USER $uid:$uid" 'WORKDIR /var/lib/openstack' >"$work/ctx/Dockerfile"
$engine build -q -t "$image" "$work/ctx" >/dev/null
$engine rmi "$image-rootfs" >/dev/null 2>&1 || true
mkdir -p "$(dirname "$tar")"
rm -f "$TOOLS_DIR/kind/images/$service-$suite-"*.tar
save_archive "$tar.tmp" "$image"
mv "$tar.tmp" "$tar"
echo "$tar"
