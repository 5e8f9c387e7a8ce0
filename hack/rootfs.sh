#!/usr/bin/env bash
# Builds, once, a root filesystem of a newer Debian suite with the OpenStack
# services the conformance suites run against a newer release than the
# machine's own (bookworm ships Zed). Cached next to the tools, keyed by the
# suite and the package list; prints the root's path on stdout.
#   hack/rootfs.sh [sid]
# Debian's sid carries 2026.2 (placement 16, glance 33, barbican 23, uwsgi 2.0.31).
# The suites start the services inside it with chroot in a private mount
# namespace (e2e/localsvc), against the machine's MariaDB, memcached,
# Keystone and S3 server on loopback.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=versions.env
. "$here/versions.env"
TOOLS_DIR=${C5C3_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/c5c3-operators/tools}
suite=${1:-sid}
log() { echo "hack/rootfs.sh: $*" >&2; }

case "$suite" in
sid) ;;
*) echo "hack/rootfs.sh: unknown suite $suite (known: sid)" >&2; exit 2 ;;
esac

# What the suites run inside: the services and their manage commands (the
# *-common packages), uwsgi with its python3 and http plugins, the drivers
# the rendered configuration names (PyMySQL, boto3 for Glance's S3 store);
# Tempest with the Glance and Barbican plugins of the same release.
# Barbican too: the machine's bookworm barbican (Zed) has no
# barbican.wsgi.api module, which the operator's argv names.
packages=(python3-placement placement-common python3-glance glance-common glance-api python3-boto3
  python3-barbican barbican-common python3-pymysql mariadb-client uwsgi-core uwsgi-plugin-python3
  tempest glance-tempest-plugin barbican-tempest-plugin)
key=$(printf '%s\n' "$suite" "$ROOTFS_EPOCH" "${packages[@]}" | sha256sum | cut -c1-12)
dir="$TOOLS_DIR/rootfs/$suite-$key"
if [ -f "$dir/.ready" ]; then
  echo "$dir"
  exit 0
fi

command -v mmdebstrap >/dev/null || {
  sudo=
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
}

log "building the $suite root filesystem (about 4 minutes, 1.1 GB; once per machine)"
rm -rf "$dir.tmp"
mkdir -p "$(dirname "$dir")"
# The served sid's Release file is past its Valid-Until: apt must not
# refuse it. mmdebstrap keeps daemons from starting while it installs.
# Inside, localhost resolves as on any machine; the services' own
# database and endpoint set-up stays off (debconf defaults, written down).
mmdebstrap --quiet --variant=apt --mode=root \
  --aptopt='Acquire::Check-Valid-Until "false"' \
  --include="$(IFS=,; echo "${packages[*]}")" \
  --essential-hook='printf "%s\n" "placement-common placement/configure_db boolean false" "glance-common glance/configure_db boolean false" "glance-common glance/configure_ksat boolean false" "glance-api glance/configure_ksat boolean false" "barbican-common barbican/configure_db boolean false" "barbican-common barbican/configure_ksat boolean false" | chroot "$1" debconf-set-selections || true' \
  --customize-hook='printf "127.0.0.1 localhost\n::1 localhost\n" > "$1/etc/hosts"' \
  "$suite" "$dir.tmp" >&2
for f in /usr/bin/placement-manage /usr/bin/glance-manage /usr/bin/barbican-manage /usr/bin/uwsgi /usr/lib/uwsgi/plugins/python3_plugin.so \
  /usr/lib/uwsgi/plugins/http_plugin.so /usr/bin/tempest /usr/lib/python3/dist-packages/glance_tempest_plugin \
  /usr/lib/python3/dist-packages/barbican_tempest_plugin; do
  [ -e "$dir.tmp$f" ] || { echo "hack/rootfs.sh: $suite root has no $f" >&2; exit 1; }
done
touch "$dir.tmp/.ready"
mv "$dir.tmp" "$dir"
# Roots of an older package list are not used again: free their space.
for old in "$TOOLS_DIR/rootfs/$suite"-*; do
  [ "$old" = "$dir" ] || { log "removing the outdated root $old"; rm -rf "$old"; }
done
echo "$dir"
