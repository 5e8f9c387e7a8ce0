package workload

import (
	"strconv"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// UWSGILogFormat is the request-line format shared by the service operators.
const UWSGILogFormat = "%(method) %(uri) => generated %(rsize) bytes in %(msecs) msecs (%(proto) %(status))"

// ShutdownFlags end every uwsgi command line. Deviations from the seed,
// measured on uwsgi 2.0.21 (docs/decisions/uwsgi-die-on-term.md):
// --die-on-term, or the master treats SIGTERM as a reload and re-execs, so
// pods never exit on their own and get SIGKILLed at the end of the grace
// period; --skip-atexit, or a worker stopping with several threads can crash
// in the Python teardown (greenlet, an eventlet leftover) or hang in it until
// the master's 60 s worker-reload-mercy, past the grace period again.
var ShutdownFlags = []string{"--die-on-term", "--skip-atexit"}

// CloseFlags follow the HTTP and keep-alive flags of every uwsgi command
// line: every response says "Connection: close". uWSGI's HTTP router gives
// up keep-alive without saying so after a request with a body (uwsgi
// 2.0.21), after a chunked request body (Glance's uploads) and after
// responses it cannot delimit, and closes the connection; an HTTP/1.1
// client (python-requests, keystoneauth) takes the silence as keep-alive,
// reuses the connection and fails with "connection closed without
// response" (a retried upload stored an empty image). With the header the
// router still closes, and clients know it. Found by Tempest; see
// docs/decisions/uwsgi-connection-close.md.
var CloseFlags = []string{"--add-header", "Connection: close"}

// UWSGIArgs returns the uwsgi command line, one argv token per flag and value
// (no shell involved, so the log format is a single unquoted token).
// Non-positive keep-alive timeout and harakiri values are dropped.
func UWSGIArgs(port int32, wsgiFile string, u *serviceapi.UWSGISpec) []string {
	return UWSGICommand(UWSGIOptions{Port: port, WSGIFile: wsgiFile, Spec: u})
}

// UWSGIOptions is what a uwsgi command line is rendered from; the zero
// values of HTTPFlags and PyArgv render UWSGIArgs' command line.
type UWSGIOptions struct {
	Port     int32
	WSGIFile string
	Spec     *serviceapi.UWSGISpec // may be nil
	// HTTPFlags follow "--http :<port>" (e.g. Glance's chunked-transfer flags).
	HTTPFlags []string
	// PyArgv is passed as the one value of --pyargv after --threads; omitted when empty.
	PyArgv string
	// Module, when set, loads the application with --module <Module>
	// (package.module:callable) in place of --wsgi-file WSGIFile.
	Module string
}

// UWSGICommand returns the uwsgi command line of o, one argv token per flag
// and value; it always ends with ShutdownFlags.
func UWSGICommand(o UWSGIOptions) []string {
	u := o.Spec
	args := []string{"uwsgi", "--http", ":" + strconv.Itoa(int(o.Port))}
	args = append(args, o.HTTPFlags...)
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
	args = append(args, CloseFlags...)
	args = append(args,
		"--log-master",
		"--log-format", UWSGILogFormat,
	)
	if o.Module != "" {
		args = append(args, "--module", o.Module)
	} else {
		args = append(args, "--wsgi-file", o.WSGIFile)
	}
	args = append(args,
		"--master",
		"--lazy-apps",
		"--need-app",
		"--processes", strconv.Itoa(int(u.EffectiveProcesses())),
		"--threads", strconv.Itoa(int(u.EffectiveThreads())),
	)
	if o.PyArgv != "" {
		args = append(args, "--pyargv", o.PyArgv)
	}
	if u != nil && u.Harakiri != nil && *u.Harakiri > 0 {
		args = append(args, "--harakiri", strconv.Itoa(int(*u.Harakiri)))
	}
	return append(args, ShutdownFlags...)
}
