#!/bin/bash
# End-to-end prototype: throwaway MariaDB + memcached + Keystone + Placement
# (Debian bookworm packages), all on 127.0.0.1, no systemd, everything torn
# down on exit. Prints per-step timings in ms.
#
# Needs: scripts/install.sh min  (mariadb-server python3-placement
#        python3-keystone uwsgi-core uwsgi-plugin-python3 python3-pymysql)
#        + memcached (optional, MEMCACHED=0 to skip) + curl + jq.
# Env knobs: KEEP=1 keep the temp dir; MEMCACHED=0 point memcached_servers at
#            a closed port instead of a live memcached.
set -euo pipefail
export PATH=/usr/sbin:/usr/bin:/sbin:/bin   # avoid pyenv shims etc.; all tools are Debian's

ROOT=$(mktemp -d /tmp/conformance-proto/e2e.XXXXXX)
ms() { date +%s%3N; }
T_ALL=$(ms)
step() { STEP=$1; T0=$(ms); }
done_() { printf '%-44s %6d ms\n' "$STEP" $(( $(ms) - T0 )); }
alive() { local s; s=$(ps -o stat= -p "$1" 2>/dev/null || true); [ -n "$s" ] && [ "${s#Z}" = "$s" ]; }
freeport() { /usr/bin/python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1])'; }

PIDS=()   # each started daemon is a process-group leader (setsid)
stop_pg() { # name pid [grace_s]: SIGTERM the group, wait, then SIGKILL the group
  local name=$1 pid=$2 grace=${3:-10} t0 i
  alive "$pid" || return 0
  t0=$(ms); kill -TERM -- -"$pid" 2>/dev/null || kill -TERM "$pid"
  for ((i = 0; i < grace * 20; i++)); do alive "$pid" || break; sleep 0.05; done
  if alive "$pid"; then echo "  $name: no exit after ${grace}s, SIGKILL group"; kill -KILL -- -"$pid" 2>/dev/null || true; fi
  wait "$pid" 2>/dev/null && rc=0 || rc=$?
  printf '%-44s %6d ms (rc=%s)\n' "stop $name (SIGTERM->exit)" $(( $(ms) - t0 )) "$rc"
}
cleanup() {
  set +e
  echo "--- teardown"
  for ((k = ${#PIDS[@]} - 1; k >= 0; k--)); do stop_pg ${PIDS[k]}; done
  left=$(pgrep -f "$ROOT" | wc -l); echo "processes still referencing $ROOT: $left"
  [ "${KEEP:-0}" = 1 ] && echo "kept $ROOT" || rm -rf "$ROOT"
  printf '%-44s %6d ms\n' "TOTAL" $(( $(ms) - T_ALL ))
}
trap cleanup EXIT

DB_PORT=$(freeport); KS_PORT=$(freeport); PL_PORT=$(freeport); MC_PORT=$(freeport)
echo "root=$ROOT db=$DB_PORT keystone=$KS_PORT placement=$PL_PORT memcached=$MC_PORT"
DB=$ROOT/db; mkdir -p $DB

# ---------------------------------------------------------------- MariaDB
step "mariadb-install-db"
mariadb-install-db --no-defaults --datadir=$DB/data --user=root \
  --auth-root-authentication-method=socket --skip-test-db --skip-name-resolve \
  --innodb-log-file-size=8M --innodb-buffer-pool-size=32M >$DB/install.log 2>&1
done_

step "mariadbd start -> ping ok"
setsid mariadbd --no-defaults --datadir=$DB/data --user=root \
  --skip-networking=0 --bind-address=127.0.0.1 --port=$DB_PORT \
  --socket=$DB/mysqld.sock --pid-file=$DB/mysqld.pid --log-error=$DB/error.log \
  --skip-name-resolve --skip-log-bin --innodb-log-file-size=8M --innodb-buffer-pool-size=32M \
  --character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci >$DB/stdout.log 2>&1 &
PIDS+=("mariadbd $! 30")
until mariadb-admin --no-defaults -S $DB/mysqld.sock -u root ping >/dev/null 2>&1; do sleep 0.05; done
done_

step "create databases/users"
mariadb --no-defaults -S $DB/mysqld.sock -u root <<'SQL'
CREATE DATABASE placement CHARACTER SET utf8mb4;
CREATE DATABASE keystone CHARACTER SET utf8mb4;
CREATE USER 'placement'@'127.0.0.1' IDENTIFIED BY 'placement-db-pw';
GRANT ALL PRIVILEGES ON placement.* TO 'placement'@'127.0.0.1';
CREATE USER 'keystone'@'127.0.0.1' IDENTIFIED BY 'keystone-db-pw';
GRANT ALL PRIVILEGES ON keystone.* TO 'keystone'@'127.0.0.1';
SQL
done_

# -------------------------------------------------------------- memcached
if [ "${MEMCACHED:-1}" = 1 ]; then
  step "memcached start"
  setsid memcached -l 127.0.0.1 -p $MC_PORT -U 0 -m 16 -u root >$ROOT/memcached.log 2>&1 &
  PIDS+=("memcached $! 5")
  until (exec 3<>/dev/tcp/127.0.0.1/$MC_PORT) 2>/dev/null; do sleep 0.02; done
  done_
fi

# --------------------------------------------------------------- Keystone
KS=$ROOT/keystone; mkdir -p $KS/etc $KS/fernet-keys $KS/credential-keys $KS/lock
chmod 700 $KS/fernet-keys $KS/credential-keys
cat >$KS/etc/keystone.conf <<EOF
[DEFAULT]
use_stderr = true
[database]
connection = mysql+pymysql://keystone:keystone-db-pw@127.0.0.1:$DB_PORT/keystone?charset=utf8mb4
[fernet_tokens]
key_repository = $KS/fernet-keys
[fernet_receipts]
key_repository = $KS/fernet-keys
[credential]
key_repository = $KS/credential-keys
[token]
provider = fernet
[cache]
enabled = true
backend = dogpile.cache.memory
[oslo_concurrency]
lock_path = $KS/lock
EOF
KM="keystone-manage --config-file $KS/etc/keystone.conf"
step "keystone-manage fernet_setup";     $KM fernet_setup --keystone-user root --keystone-group root >$KS/manage.log 2>&1; done_
step "keystone-manage credential_setup"; $KM credential_setup --keystone-user root --keystone-group root >>$KS/manage.log 2>&1; done_
step "keystone-manage db_sync";          $KM db_sync >>$KS/manage.log 2>&1; done_
step "keystone-manage bootstrap"
$KM bootstrap --bootstrap-password admin-pw --bootstrap-username admin \
  --bootstrap-project-name admin --bootstrap-role-name admin \
  --bootstrap-service-name keystone --bootstrap-region-id RegionOne \
  --bootstrap-public-url http://127.0.0.1:$KS_PORT/v3 \
  --bootstrap-internal-url http://127.0.0.1:$KS_PORT/v3 >>$KS/manage.log 2>&1
done_

step "keystone uwsgi start -> GET /v3 200"
OS_KEYSTONE_CONFIG_DIR=$KS/etc setsid uwsgi --plugin http,python3 --http 127.0.0.1:$KS_PORT \
  --http-keepalive --wsgi-file /usr/bin/keystone-wsgi-public --master --lazy-apps --need-app \
  --processes 1 --threads 1 --die-on-term --skip-atexit --buffer-size 65535 >$KS/uwsgi.log 2>&1 &
KS_PID=$!; PIDS+=("keystone $KS_PID 15")
until curl -sf -o /dev/null http://127.0.0.1:$KS_PORT/v3; do alive $KS_PID || { cat $KS/uwsgi.log; exit 1; }; sleep 0.05; done
done_

KSURL=http://127.0.0.1:$KS_PORT/v3
token() { # user password scope-json -> prints X-Subject-Token
  curl -sf -i -X POST $KSURL/auth/tokens -H 'Content-Type: application/json' \
    -d "{\"auth\":{\"identity\":{\"methods\":[\"password\"],\"password\":{\"user\":{\"name\":\"$1\",\"domain\":{\"id\":\"default\"},\"password\":\"$2\"}}},\"scope\":$3}}" |
    tr -d '\r' | awk -F': ' 'tolower($1)=="x-subject-token"{print $2}'
}
step "keystone: service project, placement user, roles"
ADM=$(token admin admin-pw '{"project":{"name":"admin","domain":{"id":"default"}}}')
H=(-H "X-Auth-Token: $ADM" -H 'Content-Type: application/json')
PRJ=$(curl -sf -X POST $KSURL/projects "${H[@]}" -d '{"project":{"name":"service","domain_id":"default"}}' | jq -r .project.id)
USR=$(curl -sf -X POST $KSURL/users "${H[@]}" -d "{\"user\":{\"name\":\"placement\",\"domain_id\":\"default\",\"password\":\"placement-svc-pw\",\"default_project_id\":\"$PRJ\"}}" | jq -r .user.id)
ADMIN_ROLE=$(curl -sf "$KSURL/roles?name=admin" "${H[@]}" | jq -r '.roles[0].id')
SVC_ROLE=$(curl -sf -X POST $KSURL/roles "${H[@]}" -d '{"role":{"name":"service"}}' | jq -r .role.id)
curl -sf -X PUT $KSURL/projects/$PRJ/users/$USR/roles/$ADMIN_ROLE "${H[@]}"
curl -sf -X PUT $KSURL/projects/$PRJ/users/$USR/roles/$SVC_ROLE "${H[@]}"
done_

# -------------------------------------------------------------- Placement
PL=$ROOT/placement; mkdir -p $PL/etc
[ "${MEMCACHED:-1}" = 1 ] && MCS=127.0.0.1:$MC_PORT || MCS=127.0.0.1:$(freeport)
# = minimal.placement.conf.golden with only the URLs/memcached mapped to loopback
cat >$PL/etc/placement.conf <<EOF
[DEFAULT]
debug = false
use_stderr = true

[api]
auth_strategy = keystone

[keystone_authtoken]
auth_type = password
auth_url = $KSURL
memcached_servers = $MCS
project_domain_name = Default
project_name = service
user_domain_name = Default
username = placement
www_authenticate_uri = $KSURL

[placement_database]
connection = mysql+pymysql://placeholder
connection_recycle_time = 600
max_retries = -1
EOF
export OS_PLACEMENT_DATABASE__CONNECTION="mysql+pymysql://placement:placement-db-pw@127.0.0.1:$DB_PORT/placement?charset=utf8mb4"
C=$PL/etc/placement.conf
step "placement db-sync job script (sh -eu -c)"
# render.DBSyncScript with /etc/placement/placement.conf -> $C; timeout because
# max_retries=-1 retries forever if the DSN is wrong/unreachable.
timeout 120 /bin/sh -eu -c "placement-manage --config-file $C db sync && \\
placement-manage --config-file $C db online_data_migrations && \\
{ placement-status --config-file $C upgrade check || [ \$? -eq 1 ]; }" >$PL/db-sync.log 2>&1
done_

step "placement uwsgi start -> both workers loaded"
OS_PLACEMENT_CONFIG_DIR=$PL/etc OS_KEYSTONE_AUTHTOKEN__PASSWORD=placement-svc-pw \
setsid uwsgi --plugin http,python3 --http 127.0.0.1:$PL_PORT --http-keepalive --log-master \
  --log-format '%(method) %(uri) => generated %(rsize) bytes in %(msecs) msecs (%(proto) %(status))' \
  --wsgi-file /usr/bin/placement-api --master --lazy-apps --need-app --processes 2 --threads 1 \
  --die-on-term >$PL/uwsgi.log 2>&1 &
PL_PID=$!; PIDS+=("placement $PL_PID 15")
until curl -sf -o /dev/null http://127.0.0.1:$PL_PORT/; do alive $PL_PID || { cat $PL/uwsgi.log; exit 1; }; sleep 0.05; done
echo "  (first 200 after $(( $(ms) - T0 )) ms)"
until [ "$(grep -c "WSGI app 0 (mountpoint='') ready" $PL/uwsgi.log)" -ge 2 ]; do sleep 0.05; done
done_

PLURL=http://127.0.0.1:$PL_PORT
step "placement API checks"
curl -sf $PLURL/ | jq -c .
code=$(curl -s -o /dev/null -w '%{http_code}' $PLURL/resource_providers); [ "$code" = 401 ] || { echo "expected 401, got $code"; exit 1; }
echo "  no token -> 401"
PT=$(token placement placement-svc-pw '{"project":{"name":"service","domain":{"id":"default"}}}')
RP=$(/usr/bin/python3 -c 'import uuid;print(uuid.uuid4())')
HP=(-H "X-Auth-Token: $PT" -H 'Content-Type: application/json' -H 'OpenStack-API-Version: placement 1.26')
curl -sf -X POST $PLURL/resource_providers "${HP[@]}" -d "{\"name\":\"rp-e2e\",\"uuid\":\"$RP\"}" >/dev/null
curl -sf -X PUT $PLURL/resource_providers/$RP/inventories "${HP[@]}" \
  -d '{"resource_provider_generation":0,"inventories":{"VCPU":{"total":8,"allocation_ratio":16.0},"MEMORY_MB":{"total":16384,"reserved":512}}}' >/dev/null
curl -sf $PLURL/resource_providers/$RP/inventories "${HP[@]}" | jq -c '{gen: .resource_provider_generation, vcpu: .inventories.VCPU.total, mem: .inventories.MEMORY_MB.total}'
done_
echo "segfault lines in placement log so far: $(grep -c 'Segmentation Fault' $PL/uwsgi.log || true)"
