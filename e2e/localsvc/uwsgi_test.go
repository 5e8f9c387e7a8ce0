package localsvc

import (
	"slices"
	"strings"
	"testing"
)

// A command that names a --module is mapped without a WSGI file: the listen
// address goes to loopback and the Debian plugins are loaded; a command
// whose shape changed is refused, not mapped silently.
func TestUWSGIMappingOfAModuleCommand(t *testing.T) {
	argv := []string{"uwsgi", "--http", ":9311", "--master", "--module", "barbican.wsgi.api:application", "--processes", "2"}
	got, err := BarbicanAPIUWSGI.Map(argv, 40001)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"uwsgi", "--plugin", "http,python3", "--http", "127.0.0.1:40001", "--master", "--module", "barbican.wsgi.api:application", "--processes", "2"}
	if !slices.Equal(got, want) {
		t.Errorf("mapped %q\nwant %q", got, want)
	}
	if argv[2] != ":9311" {
		t.Errorf("the rendered argv was modified: %q", argv)
	}
	for name, bad := range map[string][]string{
		"a wsgi file":    append(slices.Clone(argv), "--wsgi-file", "/srv/app.wsgi"),
		"another listen": {"uwsgi", "--http", ":8080", "--module", "barbican.wsgi.api:application"},
		"not uwsgi":      {"barbican-api"},
	} {
		if _, err := BarbicanAPIUWSGI.Map(bad, 40001); err == nil {
			t.Errorf("%s: %q mapped, want an error", name, strings.Join(bad, " "))
		}
	}
}
