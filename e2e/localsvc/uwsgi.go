package localsvc

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
)

// UWSGIMapping is all a suite may change in an operator's uwsgi command to
// run it here: the listen address (a free loopback port), the plugin flag
// (Debian builds http and python3 as plugins; an image's uwsgi has them
// built in) and the WSGI script's path (where Debian installs it).
type UWSGIMapping struct {
	// Listen is the rendered --http value, e.g. ":8778".
	Listen string
	// WSGIFile is the rendered --wsgi-file; LocalWSGIFile replaces it.
	// Empty for a command that names a --module: it must then have no
	// --wsgi-file.
	WSGIFile, LocalWSGIFile string
}

// Map returns argv with the three pieces mapped, listening on
// 127.0.0.1:port. It fails when a piece is not where the mapping expects
// it, so a changed command fails a suite instead of being mapped silently.
// argv itself is not modified.
func (m UWSGIMapping) Map(argv []string, port int) ([]string, error) {
	if len(argv) == 0 || argv[0] != "uwsgi" {
		return nil, fmt.Errorf("command %q does not start with uwsgi", argv)
	}
	out := append([]string{"uwsgi", "--plugin", "http,python3"}, argv[1:]...)
	if err := replaceValue(out, "--http", m.Listen, "127.0.0.1:"+strconv.Itoa(port)); err != nil {
		return nil, err
	}
	if m.WSGIFile == "" {
		if slices.Contains(out, "--wsgi-file") {
			return nil, fmt.Errorf("command %q has a --wsgi-file, want a --module", argv)
		}
		return out, nil
	}
	if err := replaceValue(out, "--wsgi-file", m.WSGIFile, m.LocalWSGIFile); err != nil {
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

// Processes reads the worker count (--processes) from a uwsgi command.
func Processes(argv []string) (int, error) {
	i := slices.Index(argv, "--processes")
	if i < 0 || i+1 >= len(argv) {
		return 0, fmt.Errorf("command %q has no --processes", argv)
	}
	return strconv.Atoi(argv[i+1])
}

// AppReadyLine is what uwsgi logs once per worker that loaded the app.
const AppReadyLine = "WSGI app 0 (mountpoint='') ready"

// MapWith is Map with the signature of a harness launch (dir unused).
func (m UWSGIMapping) MapWith(argv []string, port int, _ string) ([]string, error) {
	return m.Map(argv, port)
}

// BarbicanAPIUWSGI is the mapping of the Barbican operator's command: it
// names the module barbican.wsgi.api, which Debian's barbican 23 (sid's
// root filesystem) ships; the machine's bookworm barbican has none.
var BarbicanAPIUWSGI = UWSGIMapping{Listen: ":9311"}

// GlanceAPIUWSGI is the mapping of the Glance operator's uWSGI command
// (2026.1 and later). The WSGI file stays at the image's path: the suite
// mounts the entry point the image ships (glance-operator/image) there.
var GlanceAPIUWSGI = UWSGIMapping{Listen: ":9292", WSGIFile: GlanceWSGIFile, LocalWSGIFile: GlanceWSGIFile}

// GlanceWSGIFile is where a Glance image ships glance-operator/image/glance-wsgi-api.
const GlanceWSGIFile = "/var/lib/openstack/bin/glance-wsgi-api"

// MapGlanceAPI maps the Glance operator's API command in either launch
// mode: uwsgi from 2026.1, the eventlet glance-api below it.
func MapGlanceAPI(argv []string, port int, dir string) ([]string, error) {
	if len(argv) > 0 && argv[0] == "uwsgi" {
		return GlanceAPIUWSGI.Map(argv, port)
	}
	return GlanceAPIEventlet.Map(argv, port, dir)
}

// GlanceImageTrees are what a Glance image ships where Debian installs
// nothing, as machine directory to image path: the metadata definitions
// the db-sync Job loads, and the uWSGI entry point of glance-operator/image
// (root is the repository's root).
func GlanceImageTrees(root string) map[string]string {
	return map[string]string{
		"/usr/share/glance-common/metadefs":             "/var/lib/openstack/etc/glance/metadefs",
		filepath.Join(root, "glance-operator", "image"): filepath.Dir(GlanceWSGIFile),
	}
}

// PlacementAPI is the mapping of the Placement operator's API command. The
// WSGI file stays at the image's path: the suites mount the entry point a
// Placement image ships (placement-operator/image) there, as they do for
// Glance; Debian's own /usr/bin/placement-api exists on bookworm only.
var PlacementAPI = UWSGIMapping{Listen: ":8778", WSGIFile: PlacementWSGIFile, LocalWSGIFile: PlacementWSGIFile}

// PlacementWSGIFile is where a Placement image ships
// placement-operator/image/placement-api.
const PlacementWSGIFile = "/var/lib/openstack/bin/placement-api"

// PlacementImageTrees are what a Placement image ships where Debian
// installs nothing: the WSGI entry point (root is the repository's root).
func PlacementImageTrees(root string) map[string]string {
	return map[string]string{filepath.Join(root, "placement-operator", "image"): filepath.Dir(PlacementWSGIFile)}
}
