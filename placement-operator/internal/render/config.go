// Package render turns a Placement into what the operator writes: config
// files, command lines and child objects. Every function is pure.
package render

import (
	"github.com/c5c3/openstack-operators/common/lib/ini"
	"github.com/c5c3/openstack-operators/common/lib/osconfig"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// Paths inside the API and db-sync containers.
const (
	ConfigDir   = "/etc/placement"
	ConfigFile  = ConfigDir + "/placement.conf"
	PolicyFile  = ConfigDir + "/policy.yaml"
	LoggingFile = ConfigDir + "/logging.conf"
	DBTLSDir    = "/etc/placement-db-tls"
	WSGIFile    = "/var/lib/openstack/bin/placement-api"
)

// Data keys of the config ConfigMap.
const (
	KeyPlacementConf = "placement.conf"
	KeyPolicy        = osconfig.PolicyKey
	KeyLogging       = osconfig.LoggingKey
)

// ConfigData renders the ConfigMap data: placement.conf, plus policy.yaml when
// rules are given and logging.conf for JSON logging. policyRules is the merged
// rule map (ConfigMap rules overlaid by inline ones).
func ConfigData(p *placementv1.Placement, policyRules map[string]string) (map[string]string, error) {
	return osconfig.Render(osconfig.Input{
		MainKey:     KeyPlacementConf,
		Defaults:    Defaults(p),
		Extra:       p.Spec.ExtraConfig,
		Owned:       OwnedKeys,
		PolicyRules: policyRules,
		PolicyFile:  PolicyFile,
		Logging:     p.Spec.Logging,
	})
}

// Defaults is placement.conf before extraConfig is merged.
func Defaults(p *placementv1.Placement) ini.File {
	return ini.File{
		"DEFAULT":            osconfig.Default(p.Spec.Logging, LoggingFile),
		"api":                {"auth_strategy": "keystone"},
		"placement_database": osconfig.Database(),
		"keystone_authtoken": osconfig.KeystoneAuthtoken(&p.Spec.ServiceSpec),
	}
}
