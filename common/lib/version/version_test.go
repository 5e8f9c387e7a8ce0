package version

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestStampWinsOverBuildInfo(t *testing.T) {
	bi := &debug.BuildInfo{Main: debug.Module{Version: "v9.9.9"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "fromvcs"}, {Key: "vcs.time", Value: "2020-01-01T00:00:00Z"},
	}}
	got := get("v0.2.0", "abc123", "2026-12-02T10:00:00Z", bi)
	want := Info{Version: "0.2.0", Commit: "abc123", Date: "2026-12-02T10:00:00Z", GoVersion: runtime.Version()}
	if got != want {
		t.Errorf("get = %+v, want %+v", got, want)
	}
}

func TestBuildInfoFillsWhatIsNotStamped(t *testing.T) {
	bi := &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "fromvcs"}, {Key: "vcs.time", Value: "2020-01-01T00:00:00Z"},
	}}
	got := get("", "", "", bi)
	if got.Version != "1.4.0" || got.Commit != "fromvcs" || got.Date != "2020-01-01T00:00:00Z" {
		t.Errorf("get = %+v, want the build information's values", got)
	}
}

func TestDevelopmentBuild(t *testing.T) {
	got := get("", "", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}})
	if got.Version != "dev" || got.Commit != Unknown || got.Date != Unknown {
		t.Errorf("get = %+v, want dev/unknown/unknown", got)
	}
	if s := got.String("placement-operator"); s != "placement-operator dev (commit unknown, built unknown, "+runtime.Version()+")" {
		t.Errorf("String = %q", s)
	}
}

// The go command stamps a pseudo-version on a build of an untagged or
// modified checkout: that is a development build, not a release.
func TestPseudoVersionIsDevelopment(t *testing.T) {
	for _, v := range []string{"v0.0.0-20261202184100-6accd0e1234a", "v0.0.0-20261202184100-6accd0e1234a+dirty", "v0.1.1-0.20261202184100-6accd0e1234a", "v0.1.0+dirty", "(devel)", ""} {
		if got := get("", "", "", &debug.BuildInfo{Main: debug.Module{Version: v}}); got.Version != "dev" {
			t.Errorf("module version %q: Version = %q, want dev", v, got.Version)
		}
	}
	if got := get("", "", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.2.0"}}); got.Version != "0.2.0" {
		t.Errorf("tagged build: Version = %q, want 0.2.0", got.Version)
	}
}
