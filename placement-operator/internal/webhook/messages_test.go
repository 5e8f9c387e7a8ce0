package webhook

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"unicode"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/yaml"

	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// Admission messages use plain ASCII (>=, ->, "..."), so they read the same in
// every terminal, log pipeline and kubectl output encoding.

func nonASCII(s string) bool {
	for i := range len(s) {
		if s[i] > unicode.MaxASCII {
			return true
		}
	}
	return false
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

func TestCRDMessagesAreASCII(t *testing.T) {
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
	// The CRD carries a dozen CEL rules; finding none means the walk is broken.
	if len(msgs) < 10 {
		t.Fatalf("found %d messages, want the CEL rules' messages: %v", len(msgs), msgs)
	}
	for at, m := range msgs {
		if nonASCII(m) {
			t.Errorf("%s: message %q is not ASCII", at, m)
		}
	}
}

func TestValidatorMessagesAreASCII(t *testing.T) {
	v := newValidator(t, nil)
	ctx := context.Background()
	var checked int
	check := func(name string, warnings []string, err error) {
		t.Helper()
		for _, w := range warnings {
			checked++
			if nonASCII(w) {
				t.Errorf("%s: warning %q is not ASCII", name, w)
			}
		}
		if err == nil {
			return
		}
		var se *apierrors.StatusError
		if !errors.As(err, &se) {
			t.Fatalf("%s: error %v is %T, want *StatusError", name, err, err)
		}
		if nonASCII(se.Status().Message) {
			t.Errorf("%s: message %q is not ASCII", name, se.Status().Message)
		}
		for _, c := range se.Status().Details.Causes {
			checked++
			if nonASCII(c.Message) {
				t.Errorf("%s: %s: %q is not ASCII", name, c.Field, c.Message)
			}
		}
	}
	for _, tc := range specRules() {
		p := valid()
		tc.mut(p)
		if tc.old == nil {
			w, err := v.ValidateCreate(ctx, p)
			check(tc.name, w, err)
			continue
		}
		old := valid()
		tc.old(old)
		w, err := v.ValidateUpdate(ctx, old, p)
		check(tc.name, w, err)
	}
	for name, mut := range map[string]func(p *placementv1.Placement){
		"PriorityClass missing": func(p *placementv1.Placement) { p.Spec.Deployment.PriorityClassName = new("missing") },
		"extraConfig refused and deprecated": func(p *placementv1.Placement) {
			p.Spec.ExtraConfig = map[string]map[string]string{
				"api": {"auth_strategy": "noauth2"}, "keystone_authtoken": {"password": "x"},
				"placement": {"no_such_option": "1", "": "1"}, "nova": {"x": "1"}, "DEFAULT": {"logfile": "/x", "debug": "a\nb"},
			}
		},
		"release without catalog": func(p *placementv1.Placement) {
			p.Spec.OpenStackRelease = "2024.1"
			p.Spec.ExtraConfig = map[string]map[string]string{"placement": {"a": "1"}}
		},
	} {
		p := valid()
		mut(p)
		w, err := v.ValidateCreate(ctx, p)
		check(name, w, err)
	}
	if checked < len(specRules()) {
		t.Fatalf("checked %d messages, want at least one per rule", checked)
	}
}
