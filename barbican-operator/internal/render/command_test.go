package render_test

import (
	"slices"
	"testing"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

func withUWSGI(u *serviceapi.UWSGISpec) *barbicanv1.Barbican {
	b := minimal()
	b.Spec.APIServer = &barbicanv1.APIServerSpec{UWSGI: u}
	return b
}

func TestArgv(t *testing.T) {
	head := []string{"uwsgi", "--http", ":9311"}
	mid := func(p, th string) []string {
		return []string{"--add-header", "Connection: close", "--log-master", "--log-format", workload.UWSGILogFormat,
			"--module", "barbican.wsgi.api:application",
			"--master", "--lazy-apps", "--need-app", "--processes", p, "--threads", th}
	}
	shutdown := []string{"--die-on-term", "--skip-atexit"}
	cat := slices.Concat[[]string]
	cases := []struct {
		name   string
		golden string // argv.<golden>.golden when set
		b      *barbicanv1.Barbican
		want   []string
	}{
		{"defaults", "default", minimal(), cat(head, []string{"--http-keepalive"}, mid("2", "1"), shutdown)},
		{"empty apiServer", "", &barbicanv1.Barbican{Spec: barbicanv1.BarbicanSpec{APIServer: &barbicanv1.APIServerSpec{}}},
			cat(head, []string{"--http-keepalive"}, mid("2", "1"), shutdown)},
		{"keep-alive timeout and harakiri", "tuned",
			withUWSGI(&serviceapi.UWSGISpec{Processes: 4, Threads: 2, HTTPKeepAlive: new(true), HTTPKeepAliveTimeout: new(int32(30)), Harakiri: new(int32(20))}),
			cat(head, []string{"--http-keepalive=30"}, mid("4", "2"), []string{"--harakiri", "20"}, shutdown)},
		{"keep-alive off drops both flags", "keepalive-off",
			withUWSGI(&serviceapi.UWSGISpec{HTTPKeepAlive: new(false), Harakiri: new(int32(45))}),
			cat(head, mid("2", "1"), []string{"--harakiri", "45"}, shutdown)},
		{"non-positive values dropped", "",
			withUWSGI(&serviceapi.UWSGISpec{Processes: -1, HTTPKeepAliveTimeout: new(int32(0)), Harakiri: new(int32(-1))}),
			cat(head, []string{"--http-keepalive"}, mid("2", "1"), shutdown)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := render.Argv(tc.b)
			if !slices.Equal(got, tc.want) {
				t.Errorf("Argv =\n%q\nwant\n%q", got, tc.want)
			}
			if tc.golden != "" {
				checkGolden(t, "argv."+tc.golden, argv(got), true)
			}
			for _, banned := range []string{"--wsgi-file", "--pyargv", "--config-file"} {
				if slices.Contains(got, banned) {
					t.Errorf("Argv carries %s", banned)
				}
			}
			d := render.Deployment(tc.b, testConfigSecret, render.StoreMount{}, render.Digests{})
			if !slices.Equal(d.Spec.Template.Spec.Containers[0].Command, got) {
				t.Error("Deployment command differs from Argv()")
			}
		})
	}
}
