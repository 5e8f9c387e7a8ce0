#!/bin/bash
# usage: pl-probe.sh <label> [VAR=VALUE ...]  — start placement (1 worker) with extra env, do one authed GET, stop.
cd /tmp/conformance-proto/run; LABEL=$1; shift
PORT=$(cat db/port); read KSPORT PLPORT MCPORT < ports; KS=http://127.0.0.1:$KSPORT/v3; PL=http://127.0.0.1:$PLPORT
export OS_PLACEMENT_CONFIG_DIR=${OS_PLACEMENT_CONFIG_DIR:-$PWD/placement-etc} OS_PLACEMENT_DATABASE__CONNECTION="mysql+pymysql://placement:placement-db-pw@127.0.0.1:$PORT/placement?charset=utf8mb4" OS_KEYSTONE_AUTHTOKEN__PASSWORD=${PW:-placement-svc-pw}
env "$@" setsid uwsgi --plugin http,python3 --http 127.0.0.1:$PLPORT --wsgi-file /usr/bin/placement-api --master --lazy-apps --need-app --processes 1 --threads 1 --die-on-term --skip-atexit > pl/$LABEL.log 2>&1 & P=$!
until curl -sf -o /dev/null $PL/; do sleep 0.1; kill -0 $P 2>/dev/null || { echo "$LABEL: died"; exit 1; }; done
T=$(curl -s -i -X POST $KS/auth/tokens -H 'Content-Type: application/json' -d '{"auth":{"identity":{"methods":["password"],"password":{"user":{"name":"admin","domain":{"id":"default"},"password":"admin-pw"}}},"scope":{"project":{"name":"admin","domain":{"id":"default"}}}}}' | tr -d '\r' | awk -F': ' 'tolower($1)=="x-subject-token"{print $2}')
curl -s -o /dev/null -w "$LABEL: GET /resource_providers -> %{http_code} in %{time_total}s\n" $PL/resource_providers -H "X-Auth-Token: $T"
kill -TERM $P; wait $P
grep -E 'ERROR|CRITICAL|WARNING' pl/$LABEL.log | grep -v service_token_roles_required | cut -c1-260 | head -4
