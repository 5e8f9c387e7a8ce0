package main

import (
	"archive/tar"
	"bytes"
	"errors"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// fileContent reads name from the image's layers.
func fileContent(t *testing.T, img v1.Image, name string) []byte {
	t.Helper()
	var content []byte
	walkFiles(t, img, func(h *tar.Header, r io.Reader) {
		if h.Name == name {
			b, err := io.ReadAll(r)
			if err != nil {
				t.Fatal(err)
			}
			content = b
		}
	})
	if content == nil {
		t.Fatalf("no %s in the image", name)
	}
	return content
}

func TestRefusesDynamicBinaryAndRoot(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "image.tar")
	sh, err := exec.LookPath("sh") // any distribution binary is dynamically linked
	if err != nil {
		t.Fatal(err)
	}
	err = Build(Options{Binary: sh, Path: "/manager", User: "65532:65532", Tag: "x:y", Out: out})
	if err == nil || !strings.Contains(err.Error(), "dynamically linked") {
		t.Errorf("dynamic binary: err = %v", err)
	}
	err = Build(Options{Binary: sh, Path: "/manager", User: "0:0", Tag: "x:y", Out: out})
	if err == nil || !strings.Contains(err.Error(), "non-root") {
		t.Errorf("root user: err = %v", err)
	}
}

// imageFiles lists every file of every layer.
func imageFiles(t *testing.T, img v1.Image) map[string]*tar.Header {
	t.Helper()
	files := map[string]*tar.Header{}
	walkFiles(t, img, func(h *tar.Header, _ io.Reader) { files[h.Name] = h })
	return files
}

// walkFiles calls f with every file of every layer and its content.
func walkFiles(t *testing.T, img v1.Image, f func(*tar.Header, io.Reader)) {
	t.Helper()
	layers, err := img.Layers()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range layers {
		rc, err := l.Uncompressed()
		if err != nil {
			t.Fatal(err)
		}
		tr := tar.NewReader(rc)
		for {
			h, err := tr.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			f(h, tr)
		}
		_ = rc.Close()
	}
}

func keys(m map[string]*tar.Header) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// The image holds the one binary, run as the non-root user; the labels and
// the creation time given reach its config, and without a time the config
// carries none, so that one binary gives one image. (The release test checks
// the same of every operator's released image.)
func TestLabelsAndCreated(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "static")
	src := filepath.Join(dir, "main.go")
	if err := os.WriteFile(src, []byte("package main\nfunc main() {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "build", "-o", bin, src)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building: %v\n%s", err, out)
	}
	created := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	labels := map[string]string{"org.opencontainers.image.version": "1.2.3"}
	for _, tc := range []struct {
		name    string
		created time.Time
	}{{"with a time", created}, {"without", time.Time{}}} {
		t.Run(tc.name, func(t *testing.T) {
			img, cfg := build(t, Options{Binary: bin, Path: "/manager", User: "65532:65532", Tag: "x:y",
				Out: filepath.Join(t.TempDir(), "image.tar"), Labels: labels, Created: tc.created})
			if files := imageFiles(t, img); len(files) != 1 || files["manager"] == nil || files["manager"].Mode&0o111 == 0 {
				t.Fatalf("image files = %v, want only an executable /manager", keys(files))
			}
			built, err := os.ReadFile(bin)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(fileContent(t, img, "manager"), built) {
				t.Errorf("/manager is not the binary built")
			}
			if got := cfg.Config.Entrypoint; len(got) != 1 || got[0] != "/manager" || cfg.Config.User != "65532:65532" {
				t.Errorf("entrypoint %v user %q, want [/manager] as 65532:65532", got, cfg.Config.User)
			}
			if !maps.Equal(cfg.Config.Labels, labels) {
				t.Errorf("labels = %v, want %v", cfg.Config.Labels, labels)
			}
			if !cfg.Created.Equal(tc.created) {
				t.Errorf("created = %v, want %v", cfg.Created.Time, tc.created)
			}
		})
	}
}

// build builds the image of o and reads it back as a runtime would.
func build(t *testing.T, o Options) (v1.Image, *v1.ConfigFile) {
	t.Helper()
	if err := Build(o); err != nil {
		t.Fatal(err)
	}
	img, err := tarball.ImageFromPath(o.Out, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	return img, cfg
}
