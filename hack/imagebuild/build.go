package main

import (
	"archive/tar"
	"bytes"
	"debug/elf"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
)

// Options of one image build.
type Options struct {
	Binary, Path, User, Tag, Out string
	// Labels are the image's labels (the release sets the OCI ones:
	// org.opencontainers.image.version, revision, source, created, licenses).
	Labels map[string]string
	// Created is the image's creation time; zero leaves it unset, so that
	// one binary always gives the same image.
	Created time.Time
}

// Build writes the image tarball. The binary must be statically linked: the
// image has no libc and no shell.
func Build(o Options) error {
	if o.Binary == "" || o.Out == "" || o.Tag == "" {
		return errors.New("--binary, --tag and --out are required")
	}
	if err := checkUser(o.User); err != nil {
		return err
	}
	bin, err := os.ReadFile(o.Binary)
	if err != nil {
		return fmt.Errorf("reading binary: %w", err)
	}
	if err := checkStatic(o.Binary); err != nil {
		return err
	}
	raw, err := layerTar(o.Path, bin)
	if err != nil {
		return err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(raw)), nil
	})
	if err != nil {
		return fmt.Errorf("building layer: %w", err)
	}
	img, err := mutate.AppendLayers(empty.Image, layer)
	if err != nil {
		return fmt.Errorf("appending layer: %w", err)
	}
	cfg, err := img.ConfigFile()
	if err != nil {
		return err
	}
	cfg = cfg.DeepCopy()
	cfg.OS, cfg.Architecture = "linux", "amd64"
	cfg.Config = v1.Config{Entrypoint: []string{o.Path}, User: o.User, WorkingDir: "/", Labels: o.Labels}
	if !o.Created.IsZero() {
		cfg.Created = v1.Time{Time: o.Created.UTC()}
	}
	img, err = mutate.ConfigFile(img, cfg)
	if err != nil {
		return fmt.Errorf("setting config: %w", err)
	}
	ref, err := name.NewTag(o.Tag)
	if err != nil {
		return fmt.Errorf("parsing tag: %w", err)
	}
	return tarball.WriteToFile(o.Out, ref, img)
}

// layerTar is a reproducible layer holding one executable at path.
func layerTar(path string, bin []byte) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	hdr := &tar.Header{Name: strings.TrimPrefix(path, "/"), Mode: 0o555, Size: int64(len(bin)), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg}
	if err := tw.WriteHeader(hdr); err != nil {
		return nil, fmt.Errorf("writing layer header: %w", err)
	}
	if _, err := tw.Write(bin); err != nil {
		return nil, fmt.Errorf("writing layer: %w", err)
	}
	if err := tw.Close(); err != nil {
		return nil, fmt.Errorf("closing layer: %w", err)
	}
	return buf.Bytes(), nil
}

func checkUser(u string) error {
	uid, _, ok := strings.Cut(u, ":")
	n, err := strconv.Atoi(uid)
	if !ok || err != nil || n == 0 {
		return fmt.Errorf("--user %q must be a numeric non-root uid:gid", u)
	}
	return nil
}

// checkStatic refuses a dynamically linked binary (one with an interpreter).
func checkStatic(path string) error {
	f, err := elf.Open(path)
	if err != nil {
		return fmt.Errorf("reading ELF of %s: %w", path, err)
	}
	defer func() { _ = f.Close() }()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return fmt.Errorf("%s is dynamically linked; build it with CGO_ENABLED=0", path)
		}
	}
	return nil
}
