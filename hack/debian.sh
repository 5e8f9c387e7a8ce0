#!/usr/bin/env bash
# Installs the Debian packages the conformance and e2e suites start as real
# servers (MariaDB, memcached, Keystone, Placement under uwsgi) without
# letting any maintainer script start a daemon or touch a database:
# MariaDB, memcached, Keystone, Placement under uwsgi, and Glance (glance-api
# for the eventlet launch mode, glance-manage, the cache tools; boto3 for its
# S3 store); Tempest with the Glance and Barbican plugins (the conformance
# suites' TestTempest); and Prometheus for its promtool, which checks and
# unit-tests the charts' alerting rules (its server is never started).
# Idempotent: does nothing when every command is already there.
set -euo pipefail

packages=(mariadb-server memcached python3-placement python3-keystone uwsgi-core uwsgi-plugin-python3 python3-pymysql
  glance-api glance-common python3-glance python3-boto3 tempest glance-tempest-plugin barbican-tempest-plugin prometheus)
have() {
  for f in /usr/sbin/mariadbd /usr/bin/mariadb-install-db /usr/bin/memcached /usr/bin/placement-api \
    /usr/bin/placement-manage /usr/bin/keystone-manage /usr/bin/keystone-wsgi-public /usr/bin/uwsgi \
    /usr/lib/uwsgi/plugins/python3_plugin.so /usr/lib/uwsgi/plugins/http_plugin.so \
    /usr/bin/glance-api /usr/bin/glance-manage /usr/bin/glance-cache-pruner /usr/bin/glance-cache-cleaner \
    /usr/bin/tempest /usr/lib/python3/dist-packages/glance_tempest_plugin /usr/lib/python3/dist-packages/barbican_tempest_plugin \
    /usr/bin/promtool; do
    [ -e "$f" ] || return 1
  done
  /usr/bin/python3 -c 'import pymysql, boto3' 2>/dev/null
}
have && exit 0

sudo=
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive
echo "== installing Debian packages: ${packages[*]}"
# invoke-rc.d asks policy-rc.d; 101 forbids every service start.
created_policy=
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee /usr/sbin/policy-rc.d >/dev/null
  $sudo chmod 0755 /usr/sbin/policy-rc.d
  created_policy=1
fi
trap '[ -z "$created_policy" ] || $sudo rm -f /usr/sbin/policy-rc.d' EXIT
# The packages' own database and endpoint set-up stays off (these are the
# defaults; written down so a changed default cannot surprise us).
$sudo debconf-set-selections <<'SEL'
keystone keystone/configure_db boolean false
keystone keystone/create-admin-tenant boolean false
keystone keystone/register-endpoint boolean false
placement-common placement/configure_db boolean false
placement-common placement/configure_ksat boolean false
glance-common glance/configure_db boolean false
glance-common glance/configure_rabbit boolean false
glance-common glance/configure_ksat boolean false
glance-api glance/configure_ksat boolean false
SEL
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends \
  -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${packages[@]}" >/dev/null
have || { echo "Debian packages installed but a command is still missing" >&2; exit 1; }
