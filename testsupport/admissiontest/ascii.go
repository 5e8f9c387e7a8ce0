package admissiontest

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"unicode"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/yaml"
)

// Admission messages use plain ASCII (>=, ->, "..."), so they read the same in
// every terminal, log pipeline and kubectl output encoding.

// NonASCII reports a byte outside ASCII.
func NonASCII(s string) bool {
	for i := range len(s) {
		if s[i] > unicode.MaxASCII {
			return true
		}
	}
	return false
}

// CRDMessagesAreASCII checks every "message" of the operator's CRDs
// (config/crd: the CEL rules' messages); finding fewer than min means the
// walk is broken.
func CRDMessagesAreASCII(t *testing.T, min int) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "config", "crd", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no CRD files: %v", err)
	}
	msgs := map[string]string{}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc any
		if err := yaml.Unmarshal(raw, &doc); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		collectMessages(doc, filepath.Base(f), msgs)
	}
	if len(msgs) < min {
		t.Fatalf("found %d messages, want at least %d, the CEL rules' messages: %v", len(msgs), min, msgs)
	}
	for at, m := range msgs {
		if NonASCII(m) {
			t.Errorf("%s: message %q is not ASCII", at, m)
		}
	}
}

// collectMessages appends every "message" string under v, with its location.
func collectMessages(v any, at string, out map[string]string) {
	switch n := v.(type) {
	case map[string]any:
		for k, c := range n {
			if s, ok := c.(string); ok && k == "message" {
				out[at+"."+k] = s
				continue
			}
			collectMessages(c, at+"."+k, out)
		}
	case []any:
		for i, c := range n {
			collectMessages(c, at+"["+strconv.Itoa(i)+"]", out)
		}
	}
}

// ASCIIAnswer checks the warnings and the refusal of one admission answer
// and returns how many messages it checked.
func ASCIIAnswer(t *testing.T, name string, warnings []string, err error) int {
	t.Helper()
	checked := 0
	for _, w := range warnings {
		checked++
		if NonASCII(w) {
			t.Errorf("%s: warning %q is not ASCII", name, w)
		}
	}
	if err == nil {
		return checked
	}
	var se *apierrors.StatusError
	if !errors.As(err, &se) {
		t.Fatalf("%s: error %v is %T, want *StatusError", name, err, err)
	}
	if NonASCII(se.Status().Message) {
		t.Errorf("%s: message %q is not ASCII", name, se.Status().Message)
	}
	for _, c := range se.Status().Details.Causes {
		checked++
		if NonASCII(c.Message) {
			t.Errorf("%s: %s: %q is not ASCII", name, c.Field, c.Message)
		}
	}
	return checked
}
