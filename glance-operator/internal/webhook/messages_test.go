package webhook

import (
	"context"
	"testing"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

// Every refusal and warning the validators can produce, checked for ASCII:
// the shared rules, Glance's own, the warnings and the backend's rules.
func TestValidatorAnswersAreASCII(t *testing.T) {
	checked, v := 0, glanceValidator(t, nil)
	check := func(name string, g *glancev1.Glance) {
		w, err := v.Validate(context.Background(), g, nil)
		checked += at.ASCIIAnswer(t, name, w, err)
	}
	for _, tc := range glanceKind.ServiceRefusals(glanceCatalog) {
		g := valid()
		tc.Mut(g)
		check(tc.Name, g)
	}
	for _, tc := range glanceRefusals() {
		g := valid()
		tc.Mut(g)
		check(tc.Name, g)
	}
	for _, tc := range glanceRules {
		g := valid()
		tc.mut(g)
		check(tc.name, g)
	}
	for name, mut := range map[string]func(g *glancev1.Glance){
		"uwsgi below 2026.1": func(g *glancev1.Glance) { g.Spec.APIServer = &glancev1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{}} },
		"every filter warning": filtering(glancev1.ImportFilteringSpec{AllowedSchemes: []string{}, DisallowedPorts: []int32{1},
			AllowedHosts: []string{"\u00e9"}}),
		"non-ASCII everywhere": func(g *glancev1.Glance) {
			g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{AllowedSchemes: []string{"\u00e9"}, DisallowedHosts: []string{"\u00e9,"}}
			g.Spec.ImportPlugins = inject(map[string]string{"\u00e9:": "\u00e9,"}, "\u00e9,")
			g.Spec.DBPurge = &glancev1.DBPurgeSpec{Schedule: "\u00e9 * * * *"}
			g.Spec.ExtraConfig = map[string]map[string]string{"\u00e9": {"\u00e9": "\u00e9\n"}}
			g.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: "p", Config: map[string]string{"\u00e9": "\u00e9\n"}}}
		},
	} {
		g := valid()
		mut(g)
		check(name, g)
	}
	old := valid()
	g := valid()
	g.Spec.DBPurge = &glancev1.DBPurgeSpec{RetentionDays: new(int32(1))}
	w, err := v.Validate(context.Background(), g, old)
	checked += at.ASCIIAnswer(t, "retention lowered", w, err)

	umlaut := backend("c", true)
	umlaut.Spec.GlanceRef.Name = "gl\u00e4nce"
	bv := backendValidator(nil, backend("a", true), umlaut)
	for name, mut := range map[string]func(b *glancev1.GlanceBackend){
		"reserved name": func(b *glancev1.GlanceBackend) { b.Name = "os_glance_x" },
		"bad options": func(b *glancev1.GlanceBackend) {
			b.Spec.ExtraOptions = map[string]string{"\u00e9": "x\n", "s3_store_host": "h"}
		},
		"second default":     func(b *glancev1.GlanceBackend) { b.Spec.GlanceRef.Name = "gl\u00e4nce" },
		"second default too": func(*glancev1.GlanceBackend) {},
	} {
		b := backend("b", true)
		mut(b)
		w, err := bv.Validate(context.Background(), b, nil)
		checked += at.ASCIIAnswer(t, name, w, err)
	}
	if want := len(glanceRules) + len(glanceRefusals()); checked < want {
		t.Fatalf("checked %d messages, want at least %d", checked, want)
	}
}

// Both CRDs' CEL messages are ASCII; the Glance CRD carries the shared
// spec's rules and its own, the backend's four.
func TestGlanceCRDMessagesAreASCII(t *testing.T) {
	at.CRDMessagesAreASCII(t, 20)
}
