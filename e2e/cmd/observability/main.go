// Command observability writes each operator's Grafana dashboard and
// Prometheus rule file into its chart (files/dashboard.json,
// files/prometheusrule.yaml), from the operator's own description of its
// metrics. hack/generate.sh runs it: go run ./cmd/observability <charts dir>.
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/c5c3/openstack-operators/e2e/observability"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: observability <charts directory>")
		os.Exit(2)
	}
	for _, op := range observability.Operators {
		files, err := observability.Files(op.Spec())
		if err == nil {
			for name, b := range files {
				if err = os.WriteFile(filepath.Join(os.Args[1], op.Chart, "files", name), b, 0o644); err != nil {
					break
				}
			}
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", op.Chart, err)
			os.Exit(1)
		}
	}
}
