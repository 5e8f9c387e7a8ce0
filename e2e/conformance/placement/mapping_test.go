package placement_test

import (
	"fmt"
	"slices"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// What the suite may change in the operator's uwsgi command, and nothing
// else: the listen address (a free loopback port instead of :8778), the
// plugin flag (Debian builds http and python3 as plugins; the image's uwsgi
// has them built in) and the WSGI script's path (Debian installs it in
// /usr/bin).
const (
	imageListen   = ":8778"
	imageWSGIFile = "/var/lib/openstack/bin/placement-api"
	debianWSGI    = "/usr/bin/placement-api"
)

// mapUWSGI maps the three pieces; it fails when any of them is not where
// the operator is expected to render it, so a changed command fails the
// suite instead of being mapped silently.
func mapUWSGI(argv []string, port int) ([]string, error) {
	if len(argv) == 0 || argv[0] != "uwsgi" {
		return nil, fmt.Errorf("command %q does not start with uwsgi", argv)
	}
	out := append([]string{"uwsgi", "--plugin", "http,python3"}, argv[1:]...)
	if err := replaceValue(out, "--http", imageListen, "127.0.0.1:"+strconv.Itoa(port)); err != nil {
		return nil, err
	}
	if err := replaceValue(out, "--wsgi-file", imageWSGIFile, debianWSGI); err != nil {
		return nil, err
	}
	return out, nil
}

func replaceValue(argv []string, flag, want, with string) error {
	i := slices.Index(argv, flag)
	if i < 0 || i+1 >= len(argv) {
		return fmt.Errorf("command %q has no %s", argv, flag)
	}
	if argv[i+1] != want {
		return fmt.Errorf("%s is %q, want %q", flag, argv[i+1], want)
	}
	argv[i+1] = with
	return nil
}

// processes reads the worker count from the command.
func processes(argv []string) (int, error) {
	i := slices.Index(argv, "--processes")
	if i < 0 || i+1 >= len(argv) {
		return 0, fmt.Errorf("command %q has no --processes", argv)
	}
	return strconv.Atoi(argv[i+1])
}

func TestMapUWSGIChangesOnlyTheMappedPieces(t *testing.T) {
	in := []string{"uwsgi", "--http", ":8778", "--http-keepalive", "--wsgi-file", imageWSGIFile, "--processes", "2", "--die-on-term"}
	got, err := mapUWSGI(in, 9999)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"uwsgi", "--plugin", "http,python3", "--http", "127.0.0.1:9999", "--http-keepalive", "--wsgi-file", debianWSGI, "--processes", "2", "--die-on-term"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("mapped command (-want +got):\n%s", d)
	}
	if in[2] != ":8778" {
		t.Error("the operator's argv was modified in place")
	}
}

func TestMapUWSGIRefusesUnexpectedCommands(t *testing.T) {
	for name, argv := range map[string][]string{
		"not uwsgi":          {"gunicorn", "--http", ":8778", "--wsgi-file", imageWSGIFile},
		"other port":         {"uwsgi", "--http", ":8080", "--wsgi-file", imageWSGIFile},
		"http-socket":        {"uwsgi", "--http-socket", ":8778", "--wsgi-file", imageWSGIFile},
		"other wsgi file":    {"uwsgi", "--http", ":8778", "--wsgi-file", "/usr/bin/placement-api"},
		"no wsgi file value": {"uwsgi", "--http", ":8778", "--wsgi-file"},
	} {
		if _, err := mapUWSGI(argv, 1); err == nil {
			t.Errorf("%s: %q mapped without error", name, argv)
		}
	}
}
