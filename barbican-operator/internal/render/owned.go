package render

import (
	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
	"github.com/c5c3/openstack-operators/common/lib/osconfig"
)

// Owners and impacts shared by several owned keys.
const (
	ownerOperator = "the operator"
	ownerStores   = "the attached BarbicanSecretStores"
	ownerDefault  = "the default BarbicanSecretStore"
	impactVault   = "barbican may store secrets somewhere other than the default store"
	impactEnvOnly = "delivered by the environment; a file copy would plant the credential in the mounted config Secret"
)

// OwnedKeys are the barbican.conf options the operator renders itself
// (barbican-api.md §4.2), conditional ones included; [secretstore:<store>]
// sections are not registered. Rejected keys carry a credential that must
// never reach the config file, or would swap AppRole for an unscoped token;
// the rest are honoured and reported.
var OwnedKeys = append(sharedOwnedKeys(), extraconfig.Registry{
	{Section: "DEFAULT", Key: "db_auto_create", Owner: ownerOperator, Impact: "API pods would race the db-sync Job to create the schema"},
	{Section: "DEFAULT", Key: "host_href", Owner: "spec.gateway", Impact: "links in API responses may point at an address clients cannot reach"},
	{Section: "queue", Key: "enable", Owner: ownerOperator, Impact: "the API would queue work for a worker that is not deployed"},
	{Section: sectionSecretStore, Key: "enable_multiple_secret_stores", Owner: ownerStores, Impact: "the per-store sections may be ignored"},
	{Section: sectionSecretStore, Key: "stores_lookup_suffix", Owner: ownerStores, Impact: "stores may no longer match the attached BarbicanSecretStores"},
	{Section: sectionVault, Key: "vault_url", Owner: ownerDefault, Impact: impactVault},
	{Section: sectionVault, Key: "use_ssl", Owner: ownerDefault, Impact: "TLS to the store may be switched off"},
	{Section: sectionVault, Key: "approle_role_id", Owner: ownerDefault, Impact: "login may fail with the store's secret ID"},
	{Section: sectionVault, Key: "kv_mountpoint", Owner: ownerDefault, Impact: impactVault},
	{Section: sectionVault, Key: "ssl_ca_crt_file", Owner: ownerDefault, Impact: "the store's CA bundle may be ignored"},
	{Section: sectionVault, Key: "namespace", Owner: ownerDefault, Impact: impactVault},
	{Section: sectionVault, Key: "approle_secret_id", Owner: "the store's credentials Secret", Impact: impactEnvOnly, Rejected: true},
	{Section: sectionVault, Key: "root_token_id", Owner: "the store's AppRole", Impact: "an unscoped token in plain text would replace the AppRole login", Rejected: true},
}...)

// sharedOwnedKeys are the shared keys Barbican renders: [keystone_authtoken],
// [database] connection and [oslo_policy] policy_file. The logging keys are
// left out (spec.logging is not rendered), and so are [database] max_retries
// and connection_recycle_time, which are defaults, not owned.
func sharedOwnedKeys() extraconfig.Registry {
	var out extraconfig.Registry
	for _, o := range osconfig.OwnedKeys("database") {
		switch {
		case o.Section == "DEFAULT", o.Section == "database" && o.Key != "connection":
			continue
		case o.Section == "keystone_authtoken" && o.Key == "password":
			o.Impact = impactEnvOnly
		}
		out = append(out, o)
	}
	return out
}
