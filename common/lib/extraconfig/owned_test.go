package extraconfig

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

var testRegistry = Registry{
	{Section: "api", Key: "auth_strategy", Owner: "the operator", Impact: "keystone auth is mandatory", Rejected: true},
	{Section: "keystone_authtoken", Key: "password", Owner: "spec.serviceUser.secretRef", Impact: "password comes from the Secret", Rejected: true},
	{Section: "DEFAULT", Key: "debug", Owner: "spec.logging", Impact: "logging level drifts from spec"},
	{Section: "DEFAULT", Key: "use_stderr", Owner: "spec.logging", Impact: "logs may leave stderr"},
	{Section: "oslo_policy", Key: "policy_file", Owner: "spec.policyOverrides", Impact: "policy overrides ignored"},
}

func TestRegistryLookup(t *testing.T) {
	tests := []struct {
		section, key string
		wantOK       bool
		wantOwner    string
	}{
		{section: "DEFAULT", key: "debug", wantOK: true, wantOwner: "spec.logging"},
		{section: "api", key: "auth_strategy", wantOK: true, wantOwner: "the operator"},
		{section: "default", key: "debug"},
		{section: "DEFAULT", key: "Debug"},
		{section: "DEFAULT", key: "log_dir"},
	}
	for _, tt := range tests {
		t.Run(tt.section+"/"+tt.key, func(t *testing.T) {
			got, ok := testRegistry.Lookup(tt.section, tt.key)
			if ok != tt.wantOK || got.Owner != tt.wantOwner {
				t.Errorf("Lookup = (%+v, %v), want owner %q, %v", got, ok, tt.wantOwner, tt.wantOK)
			}
		})
	}
}

func TestOverridesAndMessage(t *testing.T) {
	tests := []struct {
		name    string
		extra   map[string]map[string]string
		want    []string // "[section] key"
		wantMsg string
	}{
		{name: "none", extra: map[string]map[string]string{"DEFAULT": {"log_dir": "/x"}}},
		{name: "rejected keys are not overrides", extra: map[string]map[string]string{"api": {"auth_strategy": "noauth2"}}},
		{
			name: "sorted by section then key",
			extra: map[string]map[string]string{
				"oslo_policy": {"policy_file": "p.yaml"},
				"DEFAULT":     {"use_stderr": "false", "debug": "true", "log_dir": "/x"},
				"api":         {"auth_strategy": "noauth2"},
			},
			want: []string{"[DEFAULT] debug", "[DEFAULT] use_stderr", "[oslo_policy] policy_file"},
			wantMsg: "spec.extraConfig overrides operator-owned keys: " +
				"[DEFAULT] debug (logging level drifts from spec); " +
				"[DEFAULT] use_stderr (logs may leave stderr); " +
				"[oslo_policy] policy_file (policy overrides ignored)",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			keys := testRegistry.Overrides(tt.extra)
			var got []string
			for _, k := range keys {
				got = append(got, "["+k.Section+"] "+k.Key)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Overrides mismatch (-want +got):\n%s", diff)
			}
			if msg := OverrideMessage(keys); msg != tt.wantMsg {
				t.Errorf("OverrideMessage = %q, want %q", msg, tt.wantMsg)
			}
		})
	}
}

func TestOverrideMessageSortsInput(t *testing.T) {
	in := []OwnedKey{
		{Section: "b", Key: "a", Impact: "i3"},
		{Section: "a", Key: "z", Impact: "i2"},
		{Section: "a", Key: "b", Impact: "i1"},
	}
	want := "spec.extraConfig overrides operator-owned keys: [a] b (i1); [a] z (i2); [b] a (i3)"
	if got := OverrideMessage(in); got != want {
		t.Errorf("OverrideMessage = %q, want %q", got, want)
	}
	if in[0].Section != "b" {
		t.Errorf("OverrideMessage reordered its input")
	}
}
