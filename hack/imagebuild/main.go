// Command imagebuild assembles an operator image without a container engine:
// one static binary on an empty base, run as a non-root user, written as an
// image tarball that `docker load`, `podman load`, kind and crane accept.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

func main() {
	var o Options
	flag.StringVar(&o.Binary, "binary", "", "static binary to put into the image")
	flag.StringVar(&o.Path, "path", "/manager", "path of the binary inside the image")
	flag.StringVar(&o.User, "user", "65532:65532", "numeric uid:gid the image runs as")
	flag.StringVar(&o.Tag, "tag", "", "image reference recorded in the tarball, e.g. placement-operator:dev")
	flag.StringVar(&o.Out, "out", "", "tarball to write")
	flag.Func("label", "key=value label of the image; repeat for more", func(kv string) error {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return fmt.Errorf("--label %q: want key=value", kv)
		}
		if o.Labels == nil {
			o.Labels = map[string]string{}
		}
		o.Labels[k] = v
		return nil
	})
	flag.Func("created", "RFC 3339 creation time of the image (the release gives the commit's date); empty leaves it unset", func(s string) error {
		t, err := time.Parse(time.RFC3339, s)
		o.Created = t
		return err
	})
	flag.Parse()
	if err := Build(o); err != nil {
		fmt.Fprintln(os.Stderr, "imagebuild:", err)
		os.Exit(1)
	}
}
