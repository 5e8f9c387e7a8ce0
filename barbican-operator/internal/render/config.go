package render

import (
	"strings"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/lib/ini"
	"github.com/c5c3/openstack-operators/common/lib/osconfig"
)

// ConfigData renders the config Secret's data: barbican.conf and
// barbican-api-paste.ini, plus policy.yaml when policyRules (the merged rule
// map) is non-empty. stores are the credential-ready stores (StoreSections).
// Merge order: spec.plugins < operator defaults < spec.extraConfig, with
// sections and keys sorted. spec.logging is validated, not rendered.
func ConfigData(b *barbicanv1.Barbican, stores []Store, policyRules map[string]string, hostHref string) (map[string]string, error) {
	defaults, err := Defaults(b, stores, hostHref)
	if err != nil {
		return nil, err
	}
	data, err := osconfig.Render(osconfig.Input{
		MainKey:     KeyConf,
		Plugins:     osconfig.Plugins(b.Spec.Plugins),
		Defaults:    defaults,
		Extra:       b.Spec.ExtraConfig,
		Owned:       OwnedKeys,
		PolicyRules: policyRules,
		PolicyFile:  PolicyFile,
	})
	if err != nil {
		return nil, err
	}
	paste, err := PasteINI(b)
	if err != nil {
		return nil, err
	}
	data[KeyPaste] = paste
	return data, nil
}

// Defaults is barbican.conf before spec.plugins and extraConfig are merged.
func Defaults(b *barbicanv1.Barbican, stores []Store, hostHref string) (ini.File, error) {
	f, err := StoreSections(stores)
	if err != nil {
		return nil, err
	}
	f["DEFAULT"] = map[string]string{
		"db_auto_create": "false",
		"host_href":      strings.TrimSuffix(hostHref, "/"),
	}
	f["database"] = osconfig.Database()
	f["keystone_authtoken"] = osconfig.KeystoneAuthtoken(&b.Spec.ServiceSpec)
	f["queue"] = map[string]string{"enable": "false"}
	return f, nil
}
