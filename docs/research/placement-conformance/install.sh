#!/bin/sh
# Install the conformance dependencies without letting any postinst start
# a daemon or touch a database. Idempotent. Usage: install.sh [min|full]
set -eu
SET=${1:-min}
export DEBIAN_FRONTEND=noninteractive
# 1. forbid service starts (invoke-rc.d consults this; 101 = action forbidden)
CREATED_POLICY=
if [ ! -e /usr/sbin/policy-rc.d ]; then
  printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
  chmod 0755 /usr/sbin/policy-rc.d
  CREATED_POLICY=1
fi
# 2. preseed openstack-pkg-tools/dbconfig-common questions to "do nothing"
#    (these are already the template defaults; preseeding makes it explicit)
debconf-set-selections <<'SEL'
keystone keystone/configure_db boolean false
keystone keystone/create-admin-tenant boolean false
keystone keystone/register-endpoint boolean false
placement-common placement/configure_db boolean false
placement-common placement/configure_ksat boolean false
placement-api placement/configure_api-endpoint boolean false
SEL
case "$SET" in
  min)  PKGS="mariadb-server python3-placement python3-keystone uwsgi-core uwsgi-plugin-python3 python3-pymysql memcached" ;;
  full) PKGS="mariadb-server placement-api keystone uwsgi uwsgi-plugin-python3 python3-pymysql memcached" ;;
  *) echo "usage: $0 [min|full]" >&2; exit 2 ;;
esac
apt-get install -y --no-install-recommends -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold $PKGS
[ -n "$CREATED_POLICY" ] && rm -f /usr/sbin/policy-rc.d
exit 0
