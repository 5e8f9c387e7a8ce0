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
