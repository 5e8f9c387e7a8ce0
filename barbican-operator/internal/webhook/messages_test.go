package webhook

import (
	"context"
	"testing"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

// Every refusal and warning both validators produce is plain ASCII, even
// when the user wrote non-ASCII: the rule tables, the warnings, and inputs
// full of non-ASCII characters.
func TestValidatorAnswersAreASCII(t *testing.T) {
	ctx := context.Background()
	checked, v := 0, barbicanValidator(t, nil)
	check := func(name string, b, old *barbicanv1.Barbican) {
		w, err := v.Validate(ctx, b, old)
		checked += at.ASCIIAnswer(t, name, w, err)
	}
	for _, tc := range barbicanRules {
		b := valid()
		tc.mut(b)
		check(tc.name, b, nil)
	}
	for _, tc := range barbicanKind.ServiceRefusals(barbicanCatalog) {
		b := valid()
		tc.Mut(b)
		check(tc.Name, b, nil)
	}
	nonASCII := valid()
	nonASCII.Name = "barbican-with-a-name-well-beyond-the-bound-of-43" // names are DNS-1123
	nonASCII.Spec.Region = "R\u00e9gion\n"
	nonASCII.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: "k\u00e9y\r", ParentRef: serviceapi.GatewayParentRef{Name: "gw"}}
	nonASCII.Spec.Database.ClusterRef, nonASCII.Spec.Database.Host = nil, "d\u00e9"
	nonASCII.Spec.DBClean = &barbicanv1.DBCleanSpec{Schedule: "\u00e9 * * * *"}
	nonASCII.Spec.ExtraConfig = map[string]map[string]string{"\u00e9": {"\u00e9": "\u00e9\n"}, "DEFAULT": {"logdir": "\u00e9"}}
	nonASCII.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: "p", Config: map[string]string{"\u00e9\n": "\u00e9\n"}}}
	check("non-ASCII everywhere", nonASCII, nil)
	old := valid()
	lowered := valid()
	lowered.Spec.DBClean = &barbicanv1.DBCleanSpec{RetentionDays: new(int32(1))}
	check("retention lowered", lowered, old)

	umlaut := store("a")
	umlaut.Spec.BarbicanRef.Name = "b\u00e4rbican"
	sv := storeValidator(nil, umlaut)
	for _, tc := range storeRules {
		s := store("vault")
		tc.mut(s)
		w, err := sv.Validate(ctx, s, nil)
		checked += at.ASCIIAnswer(t, tc.name, w, err)
	}
	s := store("vault")
	s.Spec.BarbicanRef.Name = "b\u00e4rbican"
	s.Spec.OpenBao.KVMountpoint, s.Spec.OpenBao.InstanceRef.Name = "k\u00e9v", "b\u00e4o\n"
	s.Spec.ExtraOptions = map[string]string{"\u00e9": "\u00e9\n", "vault_url": "x"}
	w, err := sv.Validate(ctx, s, nil)
	checked += at.ASCIIAnswer(t, "store non-ASCII", w, err)
	changed := s.DeepCopy()
	changed.Spec.BarbicanRef.Name = "\u00e9"
	w, err = sv.Validate(ctx, changed, s)
	checked += at.ASCIIAnswer(t, "store immutability", w, err)

	if want := len(barbicanRules) + len(storeRules); checked < want {
		t.Fatalf("checked %d messages, want at least %d", checked, want)
	}
}

// Both CRDs' CEL messages are ASCII: the shared spec's rules on Barbican
// and the store's union, pin and immutability rules.
func TestBarbicanCRDMessagesAreASCII(t *testing.T) {
	at.CRDMessagesAreASCII(t, 24)
}
