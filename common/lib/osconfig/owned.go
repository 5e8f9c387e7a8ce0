package osconfig

import "github.com/c5c3/openstack-operators/common/lib/extraconfig"

// OwnedKeys are the keys every service renders from the shared spec:
// logging in [DEFAULT], the database section dbSection ("database" or
// "placement_database"), [keystone_authtoken] and [oslo_policy]. A
// password in extraConfig is rejected: it would land in a ConfigMap in
// clear text. The operator adds its own keys to these.
func OwnedKeys(dbSection string) extraconfig.Registry {
	return extraconfig.Registry{
		{Section: "keystone_authtoken", Key: "password", Owner: "spec.serviceUser.secretRef", Impact: "a password in extraConfig lands in a ConfigMap in clear text", Rejected: true},
		{Section: "DEFAULT", Key: "use_stderr", Owner: "the operator", Impact: "logs may no longer reach the container log"},
		{Section: "DEFAULT", Key: "debug", Owner: "spec.logging.debug", Impact: "spec.logging.debug is ignored"},
		{Section: "DEFAULT", Key: "default_log_levels", Owner: "spec.logging.perLoggerLevels", Impact: "spec.logging.perLoggerLevels is ignored"},
		{Section: "DEFAULT", Key: "log_config_append", Owner: "spec.logging.format", Impact: "spec.logging format and level are ignored"},
		{Section: dbSection, Key: "connection", Owner: "spec.database", Impact: "inert: the DSN environment variable wins"},
		{Section: dbSection, Key: "max_retries", Owner: "the operator", Impact: "the API may exit while the database is briefly unreachable"},
		{Section: dbSection, Key: "connection_recycle_time", Owner: "the operator", Impact: "idle connections may outlive the server's timeout"},
		{Section: "keystone_authtoken", Key: "auth_type", Owner: "the operator", Impact: "token validation may stop working"},
		{Section: "keystone_authtoken", Key: "auth_url", Owner: "spec.keystoneEndpoint", Impact: "spec.keystoneEndpoint is ignored"},
		{Section: "keystone_authtoken", Key: "www_authenticate_uri", Owner: "spec.keystonePublicEndpoint", Impact: "spec.keystonePublicEndpoint is ignored"},
		{Section: "keystone_authtoken", Key: "username", Owner: "spec.serviceUser.username", Impact: "spec.serviceUser.username is ignored"},
		{Section: "keystone_authtoken", Key: "project_name", Owner: "spec.serviceUser.projectName", Impact: "spec.serviceUser.projectName is ignored"},
		{Section: "keystone_authtoken", Key: "project_domain_name", Owner: "spec.serviceUser.projectDomainName", Impact: "spec.serviceUser.projectDomainName is ignored"},
		{Section: "keystone_authtoken", Key: "user_domain_name", Owner: "spec.serviceUser.userDomainName", Impact: "spec.serviceUser.userDomainName is ignored"},
		{Section: "keystone_authtoken", Key: "region_name", Owner: "spec.region", Impact: "spec.region is ignored"},
		{Section: "keystone_authtoken", Key: "memcached_servers", Owner: "spec.cache", Impact: "spec.cache is ignored"},
		{Section: "oslo_policy", Key: "policy_file", Owner: "spec.policyOverrides", Impact: "spec.policyOverrides may be ignored"},
	}
}
