#!/bin/bash
# usage: uwsgi-term-test.sh <label> <port> <signal> <extra uwsgi args...>
# starts placement under uwsgi (operator argv + --plugin), waits until BOTH workers
# have loaded the app, sends <signal> to the master, times the exit.
set -u
LABEL=$1 PORT=$2 SIG=$3; shift 3
ms() { date +%s%3N; }
alive() { local s; s=$(ps -o stat= -p "$1" 2>/dev/null); [ -n "$s" ] && [ "${s#Z}" = "$s" ]; }
LOG=/tmp/conformance-proto/run/pl/$LABEL.log
t0=$(ms)
setsid uwsgi --plugin http,python3 --http 127.0.0.1:$PORT --http-keepalive --log-master \
  --log-format '%(method) %(uri) => generated %(rsize) bytes in %(msecs) msecs (%(proto) %(status))' \
  --wsgi-file /usr/bin/placement-api --master --lazy-apps --need-app --processes 2 --threads 1 "$@" >$LOG 2>&1 &
PID=$!
until curl -sf -o /dev/null http://127.0.0.1:$PORT/; do sleep 0.05; alive $PID || { echo "$LABEL: died before ready"; wait $PID; echo rc=$?; exit 1; }; done
t1=$(ms)
[ -n "${EARLY:-}" ] || until [ "$(grep -c "WSGI app 0 (mountpoint='') ready" $LOG)" -ge 2 ]; do sleep 0.05; done
echo "$LABEL: first HTTP 200 after $(( t1-t0 ))ms, both workers loaded after $(( $(ms)-t0 ))ms"
t0=$(ms); kill -$SIG $PID
for i in $(seq 1 200); do alive $PID || break; sleep 0.05; done
if alive $PID; then
  echo "$LABEL: still alive $(( $(ms)-t0 ))ms after SIG$SIG; worker spawns so far: $(grep -c 'spawned uWSGI worker' $LOG); sending SIGINT"
  t0=$(ms); kill -INT $PID; wait $PID; rc=$?; echo "$LABEL: after SIGINT exit rc=$rc in $(( $(ms)-t0 ))ms"
else
  wait $PID; rc=$?; echo "$LABEL: exit rc=$rc in $(( $(ms)-t0 ))ms after SIG$SIG"
fi
sleep 0.2; echo "$LABEL: leftover procs in pgid: $(pgrep -g $PID | wc -l); segfaults logged: $(grep -c 'Segmentation Fault' $LOG)"
