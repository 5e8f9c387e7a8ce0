// Package version says which build an operator binary is: its version,
// commit and build date, stamped at link time by the release
// (hack/release.sh) through -ldflags -X, with Go's build information as the
// fallback for a binary built without them.
package version

import (
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
)

// Stamped at link time, e.g.
//
//	-X github.com/c5c3/openstack-operators/common/lib/version.Version=0.2.0
var (
	// Version is the operator's release, without a leading v.
	Version string
	// Commit is the full git commit the binary was built from.
	Commit string
	// Date is the build date, RFC 3339 (the release uses the commit's date,
	// so that a rebuild of one commit is the same binary).
	Date string
)

// Unknown stands for a value neither the link-time stamp nor Go's build
// information gives.
const Unknown = "unknown"

// Info is what one binary says about itself.
type Info struct {
	Version, Commit, Date, GoVersion string
}

// Get returns the stamped values; a missing one comes from Go's build
// information (the module version of a build at a release tag, vcs.revision,
// vcs.time), else Unknown. A development build says version "dev".
func Get() Info {
	bi, _ := debug.ReadBuildInfo()
	return get(Version, Commit, Date, bi)
}

func get(version, commit, date string, bi *debug.BuildInfo) Info {
	i := Info{Version: strings.TrimPrefix(version, "v"), Commit: commit, Date: date, GoVersion: runtime.Version()}
	if bi != nil {
		if i.Version == "" && tagged(bi.Main.Version) {
			i.Version = strings.TrimPrefix(bi.Main.Version, "v")
		}
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && i.Commit == "":
				i.Commit = s.Value
			case s.Key == "vcs.time" && i.Date == "":
				i.Date = s.Value
			}
		}
	}
	if i.Version == "" {
		i.Version = "dev"
	}
	if i.Commit == "" {
		i.Commit = Unknown
	}
	if i.Date == "" {
		i.Date = Unknown
	}
	return i
}

// pseudo matches the timestamp and commit of a Go pseudo-version, which the
// go command stamps on a build of an untagged commit.
var pseudo = regexp.MustCompile(`\d{14}-[0-9a-f]{12}`)

// tagged reports whether a module version names a tagged, unmodified commit
// (the go command's stamp on a build of a checkout at a release tag);
// a pseudo-version, a modified tree (+dirty) or none mean a development build.
func tagged(v string) bool {
	return v != "" && v != "(devel)" && !strings.Contains(v, "+dirty") && !pseudo.MatchString(v)
}

// String is the --version line of the binary name.
func (i Info) String(name string) string {
	return fmt.Sprintf("%s %s (commit %s, built %s, %s)", name, i.Version, i.Commit, i.Date, i.GoVersion)
}

// KeysAndValues are the start-up log line's fields.
func (i Info) KeysAndValues() []any {
	return []any{"version", i.Version, "commit", i.Commit, "buildDate", i.Date, "goVersion", i.GoVersion}
}
