package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

func TestUWSGIArgs(t *testing.T) {
	const wsgi = "/var/lib/openstack/bin/placement-api"
	head := []string{"uwsgi", "--http", ":8778"}
	mid := []string{
		"--add-header", "Connection: close",
		"--log-master",
		"--log-format", "%(method) %(uri) => generated %(rsize) bytes in %(msecs) msecs (%(proto) %(status))",
		"--wsgi-file", wsgi,
		"--master", "--lazy-apps", "--need-app",
	}
	join := func(parts ...[]string) []string {
		var out []string
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	ka := []string{"--http-keepalive"}
	pt := func(p, t string) []string { return []string{"--processes", p, "--threads", t} }
	tail := []string{"--die-on-term", "--skip-atexit"}

	tests := []struct {
		name string
		port int32
		u    *serviceapi.UWSGISpec
		want []string
	}{
		{name: "nil spec uses defaults", port: 8778, u: nil, want: join(head, ka, mid, pt("2", "1"), tail)},
		{name: "empty block uses defaults", port: 8778, u: &serviceapi.UWSGISpec{}, want: join(head, ka, mid, pt("2", "1"), tail)},
		{
			name: "explicit keepalive true with timeout",
			port: 8778, u: &serviceapi.UWSGISpec{HTTPKeepAlive: new(true), HTTPKeepAliveTimeout: new(int32(30))},
			want: join(head, []string{"--http-keepalive=30"}, mid, pt("2", "1"), tail),
		},
		{
			name: "keepalive false drops both flags",
			port: 8778, u: &serviceapi.UWSGISpec{HTTPKeepAlive: new(false), HTTPKeepAliveTimeout: new(int32(30))},
			want: join(head, mid, pt("2", "1"), tail),
		},
		{
			name: "processes threads harakiri",
			port: 8778, u: &serviceapi.UWSGISpec{Processes: 4, Threads: 8, Harakiri: new(int32(20))},
			want: join(head, ka, mid, pt("4", "8"), []string{"--harakiri", "20"}, tail),
		},
		{
			name: "zero timeout and harakiri dropped",
			port: 8778, u: &serviceapi.UWSGISpec{HTTPKeepAliveTimeout: new(int32(0)), Harakiri: new(int32(0))},
			want: join(head, ka, mid, pt("2", "1"), tail),
		},
		{
			name: "negative timeout and harakiri dropped",
			port: 8778, u: &serviceapi.UWSGISpec{HTTPKeepAliveTimeout: new(int32(-1)), Harakiri: new(int32(-5))},
			want: join(head, ka, mid, pt("2", "1"), tail),
		},
		{
			name: "other port",
			port: 9292, u: nil,
			want: join([]string{"uwsgi", "--http", ":9292"}, ka, mid, pt("2", "1"), tail),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := UWSGIArgs(tt.port, wsgi, tt.u)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("UWSGIArgs mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// UWSGICommand places the extra http flags right after --http and the one
// --pyargv value after --threads, before --harakiri and the shutdown flags.
func TestUWSGICommandHTTPFlagsAndPyArgv(t *testing.T) {
	const pyargv = "--config-dir /etc/a/ --config-dir /etc/b/"
	got := UWSGICommand(UWSGIOptions{
		Port:      9292,
		WSGIFile:  "/var/lib/openstack/bin/glance-wsgi-api",
		Spec:      &serviceapi.UWSGISpec{Processes: 3, Threads: 2, HTTPKeepAliveTimeout: new(int32(15)), Harakiri: new(int32(60))},
		HTTPFlags: []string{"--http-auto-chunked", "--http-chunked-input"},
		PyArgv:    pyargv,
	})
	want := []string{
		"uwsgi", "--http", ":9292", "--http-auto-chunked", "--http-chunked-input", "--http-keepalive=15",
		"--add-header", "Connection: close", "--log-master", "--log-format", UWSGILogFormat,
		"--wsgi-file", "/var/lib/openstack/bin/glance-wsgi-api",
		"--master", "--lazy-apps", "--need-app", "--processes", "3", "--threads", "2",
		"--pyargv", pyargv, "--harakiri", "60", "--die-on-term", "--skip-atexit",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("UWSGICommand mismatch (-want +got):\n%s", diff)
	}
	// The zero options are UWSGIArgs' command line.
	if diff := cmp.Diff(UWSGIArgs(8778, "/w", nil), UWSGICommand(UWSGIOptions{Port: 8778, WSGIFile: "/w"})); diff != "" {
		t.Errorf("UWSGIArgs differs from UWSGICommand (-args +command):\n%s", diff)
	}
}

func TestUWSGICommandModule(t *testing.T) {
	got := UWSGICommand(UWSGIOptions{Port: 9311, WSGIFile: "/ignored", Module: "barbican.wsgi.api:application"})
	want := []string{
		"uwsgi", "--http", ":9311", "--http-keepalive",
		"--add-header", "Connection: close", "--log-master", "--log-format", UWSGILogFormat,
		"--module", "barbican.wsgi.api:application",
		"--master", "--lazy-apps", "--need-app", "--processes", "2", "--threads", "1",
		"--die-on-term", "--skip-atexit",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("UWSGICommand with Module mismatch (-want +got):\n%s", diff)
	}
}
