package workload

import (
	"strconv"

	"github.com/c5c3/openstack-operators/common/api/shared"
)

// UWSGILogFormat is the request-line format shared by the service operators.
const UWSGILogFormat = "%(method) %(uri) => generated %(rsize) bytes in %(msecs) msecs (%(proto) %(status))"

// UWSGIArgs returns the uwsgi command line, one argv token per flag and value
// (no shell involved, so the log format is a single unquoted token).
// Non-positive keep-alive timeout and harakiri values are dropped.
func UWSGIArgs(port int32, wsgiFile string, u *shared.UWSGISpec) []string {
	args := []string{"uwsgi", "--http", ":" + strconv.Itoa(int(port))}
	if u.KeepAlive() {
		// uwsgi has no --http-keepalive-timeout (the seed's spelling; uwsgi
		// 2.0.21 refuses it and exits): the timeout is --http-keepalive's
		// optional value, which must be joined with "=". See
		// docs/decisions/uwsgi-keepalive-timeout.md.
		if u != nil && u.HTTPKeepAliveTimeout != nil && *u.HTTPKeepAliveTimeout > 0 {
			args = append(args, "--http-keepalive="+strconv.Itoa(int(*u.HTTPKeepAliveTimeout)))
		} else {
			args = append(args, "--http-keepalive")
		}
	}
	args = append(args,
		"--log-master",
		"--log-format", UWSGILogFormat,
		"--wsgi-file", wsgiFile,
		"--master",
		"--lazy-apps",
		"--need-app",
		"--processes", strconv.Itoa(int(u.EffectiveProcesses())),
		"--threads", strconv.Itoa(int(u.EffectiveThreads())),
	)
	if u != nil && u.Harakiri != nil && *u.Harakiri > 0 {
		args = append(args, "--harakiri", strconv.Itoa(int(*u.Harakiri)))
	}
	// Deviation from the seed, measured on uwsgi 2.0.21: without it the master
	// treats SIGTERM as a reload and re-execs, so pods never exit on their own
	// within the grace period and get SIGKILLed instead of draining.
	return append(args, "--die-on-term")
}
