package release

import (
	"strings"
	"testing"
)

func TestCheckTag(t *testing.T) {
	tests := []struct {
		name, tag, requested string
		wantReason           string
		wantInMsg            []string
	}{
		{name: "digest pin", tag: "", requested: "2025.2"},
		{name: "latest", tag: "latest", requested: "2025.2"},
		{name: "arbitrary", tag: "abc", requested: "2025.2"},
		{name: "three part tag is not a release", tag: "2026.1.0", requested: "2025.2"},
		{name: "same base", tag: "2025.2", requested: "2025.2"},
		{name: "same base with suffix", tag: "2025.2-p1", requested: "2025.2"},
		{name: "requested unparseable", tag: "2025.2", requested: "latest"},
		{
			name: "newer tag", tag: "2026.1", requested: "2025.2",
			wantReason: ReasonImageReleaseMismatch, wantInMsg: []string{"2026.1", "2025.2"},
		},
		{
			name: "older tag with suffix", tag: "2025.1-20250101", requested: "2025.2",
			wantReason: ReasonImageReleaseMismatch, wantInMsg: []string{"2025.1", "2025.2"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CheckTag(tt.tag, tt.requested)
			checkRefusal(t, got, tt.wantReason, tt.wantInMsg)
		})
	}
}

func TestGate(t *testing.T) {
	const img1, img2 = "registry.example/placement:a", "registry.example/placement:b"
	tests := []struct {
		name                                           string
		installed, requested, installedImg, currentImg string
		wantAccepted                                   bool
		wantReason                                     string
		wantInMsg                                      []string
	}{
		{name: "first install", installed: "", requested: "2025.2"},
		{name: "first install garbage requested", installed: "", requested: "latest"},
		{name: "same release", installed: "2025.2", requested: "2025.2", installedImg: img1, currentImg: img2},
		{name: "same base different suffix", installed: "2025.2", requested: "2025.2-p1"},
		{
			name: "installed unparseable", installed: "latest", requested: "2025.2",
			wantReason: ReasonVersionParseError, wantInMsg: []string{"latest", "2025.2"},
		},
		{
			name: "requested unparseable", installed: "2025.2", requested: "2025.3",
			wantReason: ReasonVersionParseError, wantInMsg: []string{"2025.2", "2025.3"},
		},
		{
			name: "downgrade minor", installed: "2026.1", requested: "2025.2",
			wantReason: ReasonDowngradeNotSupported, wantInMsg: []string{"2026.1", "2025.2"},
		},
		{
			name: "downgrade same year", installed: "2025.2", requested: "2025.1",
			wantReason: ReasonDowngradeNotSupported, wantInMsg: []string{"2025.2", "2025.1"},
		},
		{name: "Y.1 to Y.2", installed: "2025.1", requested: "2025.2", installedImg: img1, currentImg: img2, wantAccepted: true},
		{name: "Y.2 to Y+1.1", installed: "2025.2", requested: "2026.1", installedImg: img1, currentImg: img2, wantAccepted: true},
		{name: "no installed image recorded", installed: "2025.2", requested: "2026.1", currentImg: img2, wantAccepted: true},
		{
			name: "skip a release", installed: "2025.1", requested: "2026.1",
			wantReason: ReasonUpgradePathInvalid, wantInMsg: []string{"2025.1", "2026.1", "2025.2"},
		},
		{
			name: "skip a year", installed: "2025.2", requested: "2027.1",
			wantReason: ReasonUpgradePathInvalid, wantInMsg: []string{"2025.2", "2027.1"},
		},
		{
			name: "Y.2 to Y+1.2", installed: "2025.2", requested: "2026.2",
			wantReason: ReasonUpgradePathInvalid, wantInMsg: []string{"2025.2", "2026.2"},
		},
		{
			name: "bump with unchanged image", installed: "2025.2", requested: "2026.1", installedImg: img1, currentImg: img1,
			wantReason: ReasonImageReleaseMismatch, wantInMsg: []string{"2025.2", "2026.1", img1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			accepted, refusal := Gate(tt.installed, tt.requested, tt.installedImg, tt.currentImg)
			if accepted != tt.wantAccepted {
				t.Errorf("accepted = %v, want %v", accepted, tt.wantAccepted)
			}
			if accepted && refusal != nil {
				t.Errorf("accepted with refusal %v", refusal)
			}
			checkRefusal(t, refusal, tt.wantReason, tt.wantInMsg)
		})
	}
}

func checkRefusal(t *testing.T, got *Refusal, wantReason string, wantInMsg []string) {
	t.Helper()
	if wantReason == "" {
		if got != nil {
			t.Fatalf("unexpected refusal %v", got)
		}
		return
	}
	if got == nil {
		t.Fatalf("got no refusal, want %s", wantReason)
	}
	if got.Reason != wantReason {
		t.Errorf("reason = %q, want %q", got.Reason, wantReason)
	}
	for _, s := range wantInMsg {
		if !strings.Contains(got.Message, s) {
			t.Errorf("message %q does not mention %q", got.Message, s)
		}
	}
	var err error = got
	if !strings.HasPrefix(err.Error(), wantReason+": ") {
		t.Errorf("Error() = %q, want reason prefix", err.Error())
	}
}

// Refused gives the tag check's refusal first, then the gate's.
func TestRefused(t *testing.T) {
	for _, c := range []struct {
		name                                                    string
		tag, requested, installed, installedImage, currentImage string
		want                                                    string
	}{
		{"first install", "2025.2", "2025.2", "", "", "img:2025.2", ""},
		{"tag of another release on a first install", "2025.2", "2026.1", "", "", "img:2025.2", ReasonImageReleaseMismatch},
		{"steady", "2025.2", "2025.2", "2025.2", "img:2025.2", "img:2025.2", ""},
		{"one-step upgrade", "2026.1", "2026.1", "2025.2", "img:2025.2", "img:2026.1", ""},
		{"skipped release", "2027.1", "2027.1", "2025.2", "img:2025.2", "img:2027.1", ReasonUpgradePathInvalid},
		{"bump with the old tag", "2025.2", "2026.1", "2025.2", "img:2025.2", "img:2025.2", ReasonImageReleaseMismatch},
		{"downgrade", "2025.1", "2025.1", "2025.2", "img:2025.2", "img:2025.1", ReasonDowngradeNotSupported},
	} {
		got := ""
		if r := Refused(c.tag, c.requested, c.installed, c.installedImage, c.currentImage); r != nil {
			got = r.Reason
		}
		if got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
