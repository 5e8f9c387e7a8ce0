package render

import (
	"strconv"
	"strings"
)

// cachePollSeconds is how often the sidecar measures the cache.
const cachePollSeconds = 30

// cacheScript parameterises the maintenance loop; tests shorten the poll
// and point it at a scratch directory.
type cacheScript struct {
	cacheDir, configDir string
	highWaterKiB        int64
	intervalSeconds     int64
	// sleep is the argument of sleep; step is what each poll adds to the
	// elapsed time (equal in production, shorter sleeps in tests).
	sleep string
	step  int64
}

// CacheMaintenanceScript is the cache-maintenance sidecar's /bin/sh -eu
// script. maxSizeBytes is image_cache_max_size (the high water mark, in
// bytes); intervalSeconds is the maintenance interval. Every 30 s it
// measures the cache and, once the interval has elapsed or the cache is at
// the high water mark, runs glance-cache-pruner then glance-cache-cleaner.
// No failure ends the loop: it shares the pod with glance-api, and a
// crash-looping sidecar would take that replica out of the Service.
func CacheMaintenanceScript(maxSizeBytes int64, intervalSeconds int64) string {
	return cacheScript{
		cacheDir:        ImageCacheDir,
		configDir:       ConfigDir,
		highWaterKiB:    maxSizeBytes / 1024,
		intervalSeconds: intervalSeconds,
		sleep:           strconv.Itoa(cachePollSeconds),
		step:            cachePollSeconds,
	}.render()
}

// render writes the loop. Under -e every command that may fail is guarded
// (|| rc=$?, || :) and du's output is parsed with shell expansions only, so
// nothing but a failing echo can end the script.
func (c cacheScript) render() string {
	r := strings.NewReplacer(
		"@DIR@", shellQuote(c.cacheDir),
		"@CONF@", shellQuote(c.configDir),
		"@HIGH@", strconv.FormatInt(c.highWaterKiB, 10),
		"@INTERVAL@", strconv.FormatInt(c.intervalSeconds, 10),
		"@SLEEP@", c.sleep,
		"@STEP@", strconv.FormatInt(c.step, 10),
	)
	return r.Replace(cacheScriptTemplate)
}

const cacheScriptTemplate = `trap 'exit 0' TERM INT
dir=@DIR@
conf=@CONF@
high=@HIGH@
interval=@INTERVAL@
failures=0
elapsed=0
while :; do
  out=$(du -sk --exclude=incomplete --exclude=invalid --exclude=queue "$dir" 2>/dev/null || :)
  used=${out%%[!0-9]*}
  if [ -z "$used" ]; then
    echo "glance-cache-maintenance unmeasured: could not measure $dir; running a pass anyway" >&2
    used=$high
  fi
  if [ "$elapsed" -ge "$interval" ] || [ "$used" -ge "$high" ]; then
    elapsed=0
    rc=0
    glance-cache-pruner --config-dir "$conf" || rc=$?
    glance-cache-cleaner --config-dir "$conf" || rc=$?
    if [ "$rc" -eq 0 ]; then
      if [ "$failures" -gt 0 ]; then
        echo "glance-cache-maintenance recovered: after $failures consecutive failures" >&2
      fi
      failures=0
    else
      failures=$((failures + 1))
      echo "glance-cache-maintenance failed: $failures consecutive, cache at $used KiB of $high" >&2
    fi
  fi
  sleep @SLEEP@ & wait $! || :
  elapsed=$((elapsed + @STEP@))
done
`

// shellQuote single-quotes s for /bin/sh.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
