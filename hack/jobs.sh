# Sourced by hack/test.sh: a small scheduler that runs the test command's
# jobs side by side, each once the jobs it needs have passed. A job has a
# weight, the share of a core it keeps busy (in percent, measured); jobs
# start in the order they were declared while the weights of the running
# ones stay within JOBS_CAPACITY (250: two cores and a half, since most
# jobs also wait). A ready job that does not fit keeps its weight reserved:
# a job declared after it starts only if both would fit, so a heavy job is
# not passed over until the end; a light job (JOBS_LIGHT, 25: a download
# that keeps a quarter of a core busy) is not held back by a reservation,
# only by the capacity. A job starts anyway when nothing runs.
# Loading the machine further only slows every job and makes each burn
# more CPU (docs/decisions/test-run-layout.md).
#
# A job is a shell function; its output goes to a log of its own, printed
# whole when the job ends (so a CI log reads one job at a time), with the
# minute it started and how long it took. After a failure no job starts;
# the running ones finish (a suite stopped midway would leave its control
# plane behind), and run_jobs fails.
#
# Each job's CPU time is printed with it: where the cpuacct cgroup
# hierarchy is writable (JOBS_CGROUP, default /sys/fs/cgroup/cpuacct), of
# every process the job started, daemons included (a kwok cluster's
# components); elsewhere of the processes the job waited for (bash's
# `times`).
#
#   job NAME WEIGHT [NEED...]   declare job_NAME, which needs NEED...
#   run_jobs                    run them all; prints when each ran

declare -a _job_order=()
declare -A _job_needs=() _job_weight=() _job_state=() _job_pid=() _job_start=() _job_end=() _job_cpu=()
_job_logs= _job_cgroup=

job() {
  local name=$1 weight=$2
  shift 2
  declare -F "job_$name" >/dev/null || { echo "hack/jobs.sh: no function job_$name" >&2; exit 2; }
  _job_order+=("$name")
  _job_weight[$name]=$weight
  _job_needs[$name]="$*"
  _job_state[$name]=waiting
}

# _job_ready NAME: every job NAME needs has passed.
_job_ready() {
  local need
  for need in ${_job_needs[$1]}; do
    [ "${_job_state[$need]:-}" = passed ] || return 1
  done
}

_job_clock() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

_job_start() {
  local name=$1
  _job_start[$name]=$SECONDS
  _job_state[$name]=running
  echo "== $name: started ($(_job_clock "$SECONDS") in)"
  # The job's own shell: in its cgroup when there is one, -e and pipefail
  # as in the caller, its output in its log, no terminal input; it writes
  # its CPU time (waited-for processes) as it exits.
  (
    [ -z "$_job_cgroup" ] || { mkdir "$_job_cgroup/$name" && echo "$BASHPID" >"$_job_cgroup/$name/cgroup.procs"; }
    trap 'times >"$_job_logs/$name.times"' EXIT
    set -euo pipefail
    "job_$name"
  ) >"$_job_logs/$name.log" 2>&1 </dev/null &
  _job_pid[$name]=$!
}

# _job_cpu_of NAME: the job's CPU seconds, from its cgroup when it had one.
_job_cpu_of() {
  local usage
  if [ -n "$_job_cgroup" ] && usage=$(cat "$_job_cgroup/$1/cpuacct.usage" 2>/dev/null); then
    echo $(((usage + 500000000) / 1000000000))
  else
    # bash's `times` (run by the job's shell itself: in a pipe it would
    # time a new one): user and system time of the shell, then of the
    # processes it waited for, as 1m2.345s.
    awk '{ for (i = 1; i <= NF; i++) { split($i, t, "m"); s += t[1] * 60 + t[2] } } END { printf "%d\n", s + 0.5 }' \
      "$_job_logs/$1.times" 2>/dev/null || echo 0
  fi
}

_job_finish() {
  local name=$1 status=$2
  _job_end[$name]=$SECONDS
  _job_cpu[$name]=$(_job_cpu_of "$name")
  local took=$((SECONDS - _job_start[$name]))
  if [ "$status" -eq 0 ]; then
    _job_state[$name]=passed
  else
    _job_state[$name]=failed
  fi
  echo "== $name: ${_job_state[$name]} in $(_job_clock "$took") ($(_job_clock "$SECONDS") in, ${_job_cpu[$name]} CPU s)"
  cat "$_job_logs/$name.log"
}

run_jobs() {
  local capacity=${JOBS_CAPACITY:-250} light=${JOBS_LIGHT:-25} running=0 load=0 failed=0 name pid status
  _job_logs=$(mktemp -d)
  local cgroups=${JOBS_CGROUP-/sys/fs/cgroup/cpuacct}
  if [ -n "$cgroups" ] && mkdir "$cgroups/jobs.$$" 2>/dev/null; then
    _job_cgroup=$cgroups/jobs.$$
  fi
  # A job that needs a failed or unrun job never runs; the loop ends when
  # nothing runs and nothing more can start.
  local reserved
  while :; do
    if [ "$failed" -eq 0 ]; then
      reserved=0
      for name in "${_job_order[@]}"; do
        [ "${_job_state[$name]}" = waiting ] && _job_ready "$name" || continue
        local weight=${_job_weight[$name]}
        if [ "$running" -eq 0 ] || [ $((load + reserved + weight)) -le "$capacity" ] ||
          { [ "$weight" -le "$light" ] && [ $((load + weight)) -le "$capacity" ]; }; then
          _job_start "$name"
          running=$((running + 1)) load=$((load + _job_weight[$name]))
        else
          reserved=$((reserved + _job_weight[$name]))
        fi
      done
    fi
    [ "$running" -gt 0 ] || break
    status=0
    wait -n -p pid || status=$?
    for name in "${_job_order[@]}"; do
      if [ "${_job_pid[$name]:-}" = "$pid" ] && [ "${_job_state[$name]}" = running ]; then
        _job_finish "$name" "$status"
        running=$((running - 1)) load=$((load - _job_weight[$name]))
        [ "$status" -eq 0 ] || failed=1
      fi
    done
  done
  echo "== jobs ($(_job_clock "$SECONDS") in):"
  local cpu=0
  printf '   %-24s %9s %9s %9s %7s  %s\n' job started ended took 'CPU s' state
  for name in "${_job_order[@]}"; do
    if [ -n "${_job_start[$name]:-}" ]; then
      printf '   %-24s %9s %9s %9s %7s  %s\n' "$name" "$(_job_clock "${_job_start[$name]}")" "$(_job_clock "${_job_end[$name]}")" \
        "$(_job_clock $((_job_end[$name] - _job_start[$name])))" "${_job_cpu[$name]}" "${_job_state[$name]}"
      cpu=$((cpu + _job_cpu[$name]))
    else
      printf '   %-24s %9s %9s %9s %7s  %s\n' "$name" - - - - "not run"
    fi
  done
  echo "   CPU: $cpu s in $SECONDS s, $((cpu * 100 / (SECONDS > 0 ? SECONDS : 1))) percent of a core on average"
  rm -rf "$_job_logs"
  # A cgroup still holding a process (a daemon a job left) stays, and says so.
  if [ -n "$_job_cgroup" ]; then
    for name in "${_job_order[@]}"; do
      [ ! -d "$_job_cgroup/$name" ] || rmdir "$_job_cgroup/$name" 2>/dev/null ||
        echo "   $name left processes running: $(tr '\n' ' ' <"$_job_cgroup/$name/cgroup.procs")" >&2
    done
    rmdir "$_job_cgroup" 2>/dev/null || true
  fi
  for name in "${_job_order[@]}"; do
    [ "${_job_state[$name]}" = passed ] || return 1
  done
}
