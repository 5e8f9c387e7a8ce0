package extraconfig

import (
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// Minimum section counts of the real placement catalogs (8 in 2025.2, 9 with
// workarounds in 2026.1); the loader takes the lower bound.
const placementMinSections = 8

func loadPlacement(t *testing.T) *Catalogs {
	t.Helper()
	cs, err := LoadCatalogs(os.DirFS("testdata/placement"), "placement", placementMinSections)
	if err != nil {
		t.Fatalf("LoadCatalogs: %v", err)
	}
	return cs
}

func TestLoadRealCatalogs(t *testing.T) {
	cs := loadPlacement(t)
	if diff := cmp.Diff([]string{"2025.2", "2026.1"}, cs.Releases()); diff != "" {
		t.Errorf("Releases mismatch (-want +got):\n%s", diff)
	}
	tests := []struct {
		release      string
		wantOK       bool
		wantBase     string
		wantSections int
	}{
		{release: "2025.2", wantOK: true, wantBase: "2025.2", wantSections: 8},
		{release: "2026.1", wantOK: true, wantBase: "2026.1", wantSections: 9},
		{release: "2025.2-p1", wantOK: true, wantBase: "2025.2", wantSections: 8},
		{release: "2025.1"},
		{release: "2026.2"},
		{release: "2025.2.3"},
		{release: "latest"},
		{release: ""},
	}
	for _, tt := range tests {
		t.Run(tt.release, func(t *testing.T) {
			cat, ok := cs.For(tt.release)
			if ok != tt.wantOK {
				t.Fatalf("For(%q) ok = %v, want %v", tt.release, ok, tt.wantOK)
			}
			if !ok {
				if cat != nil {
					t.Errorf("For(%q) returned a catalog with ok=false", tt.release)
				}
				return
			}
			if cat.Release != tt.wantBase || cat.Service != "placement" || len(cat.Sections) != tt.wantSections {
				t.Errorf("For(%q) = %s %s with %d sections, want placement %s with %d",
					tt.release, cat.Service, cat.Release, len(cat.Sections), tt.wantBase, tt.wantSections)
			}
		})
	}
}

func TestCatalogsForNil(t *testing.T) {
	var cs *Catalogs
	if cat, ok := cs.For("2025.2"); ok || cat != nil {
		t.Errorf("nil Catalogs.For = (%v, %v), want (nil, false)", cat, ok)
	}
}

func TestLoadCatalogsErrors(t *testing.T) {
	const good = `{"release":"2025.2","sections":{"DEFAULT":{"opts":["debug"]},"api":{"opts":["auth_strategy"]}}}`
	tests := []struct {
		name        string
		files       map[string]string
		minSections int
		wantErr     string // empty means success
		wantService string
	}{
		{name: "service taken from caller", files: map[string]string{"2025.2.json": good}, minSections: 2, wantService: "placement"},
		{name: "non-json files ignored", files: map[string]string{"2025.2.json": good, "README.md": "x", "sub/2026.1.json": "{"}, minSections: 2, wantService: "placement"},
		{name: "release from file name", files: map[string]string{"2025.2.json": `{"sections":{"DEFAULT":{"opts":[]}}}`}, minSections: 1, wantService: "placement"},
		{name: "no files", files: map[string]string{}, wantErr: "no placement option catalogs"},
		{name: "bad json", files: map[string]string{"2025.2.json": good, "2026.1.json": `{"sections":`}, wantErr: "2026.1.json: decoding"},
		{name: "missing sections", files: map[string]string{"2025.2.json": `{"release":"2025.2"}`}, wantErr: "no sections"},
		{name: "empty sections", files: map[string]string{"2025.2.json": `{"release":"2025.2","sections":{}}`}, wantErr: "no sections"},
		{name: "too few sections", files: map[string]string{"2025.2.json": good}, minSections: 3, wantErr: "has 2 sections, want at least 3"},
		{name: "wrong service", files: map[string]string{"2025.2.json": `{"service":"glance","release":"2025.2","sections":{"a":{}}}`}, wantErr: `"glance"`},
		{name: "release mismatches file name", files: map[string]string{"2026.1.json": good}, wantErr: "matching the file name"},
		{name: "release with suffix", files: map[string]string{"2025.2-p1.json": `{"release":"2025.2-p1","sections":{"a":{}}}`}, wantErr: "plain YYYY.N"},
		{name: "unparseable release", files: map[string]string{"latest.json": `{"sections":{"a":{}}}`}, wantErr: "release"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, body := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(body)}
			}
			cs, err := LoadCatalogs(fsys, "placement", tt.minSections)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("LoadCatalogs error = %v, want containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("LoadCatalogs: %v", err)
			}
			cat, ok := cs.For("2025.2")
			if !ok || cat.Service != tt.wantService {
				t.Errorf("For(2025.2) = (%+v, %v), want service %q", cat, ok, tt.wantService)
			}
		})
	}
}
