package localsvc

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
)

// EventletMapping is all a suite may change in an operator's command for
// an eventlet API server (an oslo.config program such as glance-api): where
// it listens. The rendered command takes its config from --config-dir
// only; the mapping appends a --config-file setting bind_host to 127.0.0.1
// and bind_port to a free port. An explicit --config-file also keeps the
// program from reading the machine's packaged default file
// (/etc/<project>/<program>.conf), which no image of ours relies on.
type EventletMapping struct {
	// Command is the rendered argv[0], e.g. glance-api.
	Command string
	// ConfigDirs are the rendered --config-dir values, in order.
	ConfigDirs []string
}

// Map returns argv listening on 127.0.0.1:port, with the listen file
// written into dir. It fails when the command is not the expected one, so
// a changed command fails a suite instead of being mapped silently.
func (m EventletMapping) Map(argv []string, port int, dir string) ([]string, error) {
	want := []string{m.Command}
	for _, d := range m.ConfigDirs {
		want = append(want, "--config-dir", d)
	}
	if !slices.Equal(argv, want) {
		return nil, fmt.Errorf("command %q, want %q", argv, want)
	}
	listen := filepath.Join(dir, "listen.conf")
	conf := "[DEFAULT]\nbind_host = 127.0.0.1\nbind_port = " + strconv.Itoa(port) + "\n"
	if err := os.WriteFile(listen, []byte(conf), 0o644); err != nil {
		return nil, err
	}
	return append(slices.Clone(argv), "--config-file", listen), nil
}

// GlanceAPIEventlet is the mapping of the Glance operator's eventlet command
// (releases before 2026.1).
var GlanceAPIEventlet = EventletMapping{Command: "glance-api",
	ConfigDirs: []string{"/etc/glance/glance-api.conf.d/", "/etc/glance/backends.conf.d/"}}
