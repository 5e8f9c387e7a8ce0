// Package charts tests the Helm charts by rendering them with the pinned helm
// binary (built from the Go module proxy by hack/tools.sh) and asserting on
// the objects they produce.
package charts

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// kubeVersion is the Kubernetes version the charts are rendered for.
const kubeVersion = "v1.36.3"

var (
	helmOnce sync.Once
	helmPath string
	helmErr  error
)

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// helm runs the pinned helm, building it and the chart dependencies on first use.
func helm(t *testing.T, args ...string) (string, error) {
	t.Helper()
	root := repoRoot(t)
	helmOnce.Do(func() {
		var out []byte
		out, helmErr = exec.Command(filepath.Join(root, "hack", "tools.sh"), "--path", "helm").Output()
		helmPath = strings.TrimSpace(string(out))
		if helmErr == nil {
			if _, err := os.Stat(helmPath); err != nil {
				helmErr = run(exec.Command(filepath.Join(root, "hack", "tools.sh"), "helm"))
			}
		}
		for _, c := range operatorCharts {
			if helmErr == nil {
				helmErr = run(exec.Command(helmPath, "dependency", "build", filepath.Join(root, "charts", c.name)))
			}
		}
	})
	if helmErr != nil {
		t.Fatalf("preparing helm: %v", helmErr)
	}
	cmd := exec.Command(helmPath, args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), fmt.Errorf("helm %s: %w: %s", strings.Join(args, " "), err, stderr.String())
	}
	return string(out), nil
}

func run(cmd *exec.Cmd) error {
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("%s: %w: %s", cmd.String(), err, out)
	}
	return nil
}

// render runs helm template on an operator's chart and indexes the objects
// by "Kind/name".
func render(t *testing.T, c chart, args ...string) map[string]*unstructured.Unstructured {
	t.Helper()
	return renderAs(t, c, c.release, c.namespace, args...)
}

// renderAs renders c as release in namespace.
func renderAs(t *testing.T, c chart, release, namespace string, args ...string) map[string]*unstructured.Unstructured {
	t.Helper()
	// helm built with go install assumes Kubernetes v1.20; render for the pinned version.
	base := []string{"template", release, "charts/" + c.name, "--namespace", namespace, "--include-crds", "--kube-version", kubeVersion}
	out, err := helm(t, append(base, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	return decode(t, out)
}

func decode(t *testing.T, manifests string) map[string]*unstructured.Unstructured {
	t.Helper()
	objs := map[string]*unstructured.Unstructured{}
	for _, u := range decodeList(t, manifests) {
		objs[u.GetKind()+"/"+u.GetName()] = u
	}
	return objs
}

// decodeList decodes every object of a rendering, in order.
func decodeList(t *testing.T, manifests string) []*unstructured.Unstructured {
	t.Helper()
	var objs []*unstructured.Unstructured
	dec := utilyaml.NewYAMLOrJSONDecoder(strings.NewReader(manifests), 4096)
	for {
		u := &unstructured.Unstructured{}
		err := dec.Decode(&u.Object)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("decoding rendered manifests: %v", err)
		}
		if len(u.Object) != 0 {
			objs = append(objs, u)
		}
	}
	return objs
}

func get(t *testing.T, objs map[string]*unstructured.Unstructured, key string) *unstructured.Unstructured {
	t.Helper()
	o, ok := objs[key]
	if !ok {
		var keys []string
		for k := range objs {
			keys = append(keys, k)
		}
		t.Fatalf("no %s among %v", key, keys)
	}
	return o
}
