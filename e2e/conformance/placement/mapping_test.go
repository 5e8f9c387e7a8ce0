package placement_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/c5c3/openstack-operators/e2e/localsvc"
)

// The suite maps only what localsvc.PlacementAPI names (listen address,
// plugin flag, WSGI script path); these tests pin that mapping.

func TestMapUWSGIChangesOnlyTheMappedPieces(t *testing.T) {
	in := []string{"uwsgi", "--http", ":8778", "--http-keepalive", "--wsgi-file", "/var/lib/openstack/bin/placement-api", "--processes", "2", "--die-on-term", "--skip-atexit"}
	got, err := localsvc.PlacementAPI.Map(in, 9999)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"uwsgi", "--plugin", "http,python3", "--http", "127.0.0.1:9999", "--http-keepalive", "--wsgi-file", "/var/lib/openstack/bin/placement-api", "--processes", "2", "--die-on-term", "--skip-atexit"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("mapped command (-want +got):\n%s", d)
	}
	if in[2] != ":8778" {
		t.Error("the operator's argv was modified in place")
	}
}

func TestMapUWSGIRefusesUnexpectedCommands(t *testing.T) {
	const wsgi = "/var/lib/openstack/bin/placement-api"
	for name, argv := range map[string][]string{
		"not uwsgi":          {"gunicorn", "--http", ":8778", "--wsgi-file", wsgi},
		"other port":         {"uwsgi", "--http", ":8080", "--wsgi-file", wsgi},
		"http-socket":        {"uwsgi", "--http-socket", ":8778", "--wsgi-file", wsgi},
		"other wsgi file":    {"uwsgi", "--http", ":8778", "--wsgi-file", "/usr/bin/placement-api"},
		"no wsgi file value": {"uwsgi", "--http", ":8778", "--wsgi-file"},
	} {
		if _, err := localsvc.PlacementAPI.Map(argv, 1); err == nil {
			t.Errorf("%s: %q mapped without error", name, argv)
		}
	}
}
