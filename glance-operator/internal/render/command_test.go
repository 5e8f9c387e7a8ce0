package render_test

import (
	"slices"
	"testing"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/workload"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

func TestUWSGIMode(t *testing.T) {
	for rel, want := range map[string]bool{
		"2025.1": false, "2025.2": false, "2026.1": true, "2026.2": true, "2030.1": true,
		"2026.1-p1": true, "latest": false, "": false, "2026": false, "2026.3": false,
	} {
		if got := render.UWSGIMode(rel); got != want {
			t.Errorf("UWSGIMode(%q) = %v, want %v", rel, got, want)
		}
	}
}

func withUWSGI(release string, u *serviceapi.UWSGISpec) *glancev1.Glance {
	g := minimal()
	g.Spec.OpenStackRelease = release
	g.Spec.APIServer = &glancev1.APIServerSpec{UWSGI: u}
	return g
}

func TestCommand(t *testing.T) {
	const pyargv = "--config-dir /etc/glance/glance-api.conf.d/ --config-dir /etc/glance/backends.conf.d/"
	head := []string{"uwsgi", "--http", ":9292", "--http-auto-chunked", "--http-chunked-input"}
	mid := func(p, th string) []string {
		return []string{"--add-header", "Connection: close", "--log-master",
			"--log-format", "%(method) %(uri) => generated %(rsize) bytes in %(msecs) msecs (%(proto) %(status))",
			"--wsgi-file", "/var/lib/openstack/bin/glance-wsgi-api",
			"--master", "--lazy-apps", "--need-app", "--processes", p, "--threads", th,
			"--pyargv", pyargv}
	}
	shutdown := []string{"--die-on-term", "--skip-atexit"}
	eventlet := []string{"glance-api", "--config-dir", "/etc/glance/glance-api.conf.d/", "--config-dir", "/etc/glance/backends.conf.d/"}
	cat := slices.Concat[[]string]
	cases := []struct {
		name   string
		golden string // argv.<golden>.golden when set
		g      *glancev1.Glance
		want   []string
	}{
		{"eventlet", "eventlet", minimal(), eventlet},
		{"eventlet ignores uwsgi knobs", "", withUWSGI("2025.2", &serviceapi.UWSGISpec{Processes: 8}), eventlet},
		{"unparseable release is eventlet", "", withUWSGI("latest", nil), eventlet},
		{"uwsgi defaults", "uwsgi-default", withUWSGI("2026.1", nil),
			cat(head, []string{"--http-keepalive"}, mid("2", "1"), shutdown)},
		{"uwsgi keep-alive timeout and harakiri", "uwsgi-tuned",
			withUWSGI("2026.1", &serviceapi.UWSGISpec{Processes: 4, Threads: 2, HTTPKeepAlive: new(true), HTTPKeepAliveTimeout: new(int32(30)), Harakiri: new(int32(20))}),
			cat(head, []string{"--http-keepalive=30"}, mid("4", "2"), []string{"--harakiri", "20"}, shutdown)},
		{"uwsgi keep-alive off drops both flags", "uwsgi-keepalive-off",
			withUWSGI("2026.2", &serviceapi.UWSGISpec{HTTPKeepAlive: new(false), Harakiri: new(int32(45))}),
			cat(head, mid("2", "1"), []string{"--harakiri", "45"}, shutdown)},
		{"uwsgi non-positive values dropped", "",
			withUWSGI("2026.1", &serviceapi.UWSGISpec{HTTPKeepAliveTimeout: new(int32(0)), Harakiri: new(int32(-1))}),
			cat(head, []string{"--http-keepalive"}, mid("2", "1"), shutdown)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := render.Command(tc.g)
			if !slices.Equal(got, tc.want) {
				t.Errorf("Command =\n%q\nwant\n%q", got, tc.want)
			}
			if tc.golden != "" {
				checkGolden(t, "argv."+tc.golden, argv(t, got), true)
			}
			if i := slices.Index(got, "--pyargv"); i >= 0 && got[i+1] != pyargv {
				t.Errorf("--pyargv value %q is not one argument", got[i+1])
			}
			if got[0] == "uwsgi" && !slices.Equal(got[len(got)-2:], workload.ShutdownFlags) {
				t.Errorf("uwsgi command does not end with %q", workload.ShutdownFlags)
			}
			d := render.Deployment(tc.g, testConfigMap, testBackends, render.Digests{})
			if !slices.Equal(d.Spec.Template.Spec.Containers[0].Command, got) {
				t.Error("Deployment command differs from Command()")
			}
		})
	}
}
