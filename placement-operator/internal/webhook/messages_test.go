package webhook

import (
	"context"
	"testing"

	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

// The CRD carries a dozen CEL rules; finding none means the walk is broken.
func TestCRDMessagesAreASCII(t *testing.T) {
	admissiontest.CRDMessagesAreASCII(t, 10)
}

func TestValidatorMessagesAreASCII(t *testing.T) {
	v := newValidator(t, nil)
	ctx := context.Background()
	var checked int
	for _, tc := range specRules() {
		p := valid()
		tc.mut(p)
		if tc.old == nil {
			w, err := v.ValidateCreate(ctx, p)
			checked += admissiontest.ASCIIAnswer(t, tc.name, w, err)
			continue
		}
		old := valid()
		tc.old(old)
		w, err := v.ValidateUpdate(ctx, old, p)
		checked += admissiontest.ASCIIAnswer(t, tc.name, w, err)
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
		checked += admissiontest.ASCIIAnswer(t, name, w, err)
	}
	if checked < len(specRules()) {
		t.Fatalf("checked %d messages, want at least one per rule", checked)
	}
}
