package ini

import (
	"fmt"
	"testing"
)

// BenchmarkRender renders a file shaped like placement.conf: a handful of
// sections, a few dozen keys, values up to a DSN's length.
func BenchmarkRender(b *testing.B) {
	f := File{
		"DEFAULT":                {"debug": "false", "log_config_append": "/etc/placement/logging.conf", "use_stderr": "true"},
		"api":                    {"auth_strategy": "keystone"},
		"placement_database":     {"connection": "mysql+pymysql://placement:secret@mariadb.openstack.svc:3306/placement?charset=utf8", "max_pool_size": "5", "max_overflow": "10"},
		"oslo_policy":            {"policy_file": "/etc/placement/policy.yaml", "enforce_scope": "true", "enforce_new_defaults": "true"},
		"oslo_middleware":        {"enable_proxy_headers_parsing": "true"},
		"keystone_authtoken":     {},
		"cache":                  {"enabled": "true", "backend": "dogpile.cache.pymemcache", "memcache_servers": "memcached-0:11211,memcached-1:11211,memcached-2:11211"},
		"oslo_messaging_notify":  {"driver": "noop"},
		"placement":              {"randomize_allocation_candidates": "true", "max_allocation_candidates": "1000"},
		"profiler":               {"enabled": "false"},
		"oslo_concurrency":       {"lock_path": "/var/lib/placement/tmp"},
		"oslo_middleware_cors":   {"allowed_origin": "", "allow_credentials": "true"},
		"workarounds":            {},
		"oslo_reports":           {"file_event_handler_interval": "1"},
		"oslo_messaging_rabbit":  {},
		"healthcheck":            {"detailed": "false", "backends": ""},
		"placement_api_profiler": {},
	}
	auth := f["keystone_authtoken"]
	for i, k := range []string{"auth_url", "www_authenticate_uri", "auth_type", "username", "password", "project_name",
		"user_domain_name", "project_domain_name", "region_name", "interface", "service_token_roles_required", "memcached_servers"} {
		auth[k] = fmt.Sprintf("value-%d-for-%s", i, k)
	}
	b.ReportAllocs()
	var out []byte
	for b.Loop() {
		var err error
		if out, err = Render(f); err != nil {
			b.Fatal(err)
		}
	}
	if len(out) == 0 {
		b.Fatal("empty render")
	}
}
