// Package osconfig renders the configuration pieces every OpenStack service
// shares: [DEFAULT] logging, [keystone_authtoken], the database section,
// logging.conf, policy.yaml, and the owned keys that guard them, assembled
// with the service's own sections and the user's extraConfig.
package osconfig

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
	"github.com/c5c3/openstack-operators/common/lib/ini"
)

// Data keys of the config artefact besides the service's own file.
const (
	PolicyKey  = "policy.yaml"
	LoggingKey = "logging.conf"
)

// DSNPlaceholder stands for the DSN in the rendered file: the real one comes
// from the environment, so no password lands in a ConfigMap.
const DSNPlaceholder = "mysql+pymysql://placeholder"

// Input is everything a service config artefact is rendered from.
type Input struct {
	// MainKey is the data key of the service's file ("placement.conf").
	MainKey string
	// Plugins are sections merged below the defaults (spec.plugins).
	Plugins ini.File
	// Defaults are the sections the operator renders.
	Defaults ini.File
	// Extra is spec.extraConfig, merged last.
	Extra map[string]map[string]string
	// Owned guards the operator's keys; rejected ones are refused here too.
	Owned extraconfig.Registry
	// PolicyRules are the merged policy rules; policy.yaml only when non-empty.
	PolicyRules map[string]string
	// PolicyFile is where policy.yaml is mounted ([oslo_policy] policy_file).
	PolicyFile string
	// Logging is spec.logging; json renders logging.conf.
	Logging *serviceapi.LoggingSpec
}

// Render renders the artefact's data: the service's file, plus policy.yaml
// when rules are given and logging.conf for JSON logging. Merge order:
// plugins, operator defaults, extraConfig.
func Render(in Input) (map[string]string, error) {
	if err := refuseRejected(in.Owned, in.Plugins, "spec.plugins"); err != nil {
		return nil, err
	}
	if err := RefuseRejected(in.Owned, in.Extra); err != nil {
		return nil, err
	}
	conf := extraconfig.Merge(extraconfig.Merge(in.Plugins, in.Defaults), in.Extra)
	data := map[string]string{}
	if len(in.PolicyRules) > 0 {
		conf["oslo_policy"] = withKey(conf["oslo_policy"], "policy_file", in.PolicyFile)
		raw, err := yaml.Marshal(in.PolicyRules)
		if err != nil {
			return nil, fmt.Errorf("rendering %s: %w", PolicyKey, err)
		}
		data[PolicyKey] = string(raw)
	}
	out, err := ini.Render(conf)
	if err != nil {
		return nil, fmt.Errorf("rendering %s: %w", in.MainKey, err)
	}
	data[in.MainKey] = string(out)
	if JSONLogging(in.Logging) {
		lc, err := ini.Render(LoggingConf(LogLevel(in.Logging)))
		if err != nil {
			return nil, fmt.Errorf("rendering %s: %w", LoggingKey, err)
		}
		data[LoggingKey] = string(lc)
	}
	return data, nil
}

// Default is [DEFAULT]'s logging keys; loggingFile is where logging.conf is
// mounted (log_config_append, JSON logging only).
func Default(l *serviceapi.LoggingSpec, loggingFile string) map[string]string {
	out := map[string]string{
		"use_stderr": "true",
		"debug":      strconv.FormatBool(l != nil && l.Debug != nil && *l.Debug),
	}
	if l != nil && len(l.PerLoggerLevels) > 0 {
		out["default_log_levels"] = perLoggerLevels(l.PerLoggerLevels)
	}
	if JSONLogging(l) {
		out["log_config_append"] = loggingFile
	}
	return out
}

// KeystoneAuthtoken is [keystone_authtoken] without the password, which
// reaches the pods through the environment only.
func KeystoneAuthtoken(s *serviceapi.ServiceSpec) map[string]string {
	out := map[string]string{
		"auth_type":            "password",
		"auth_url":             s.KeystoneEndpoint,
		"www_authenticate_uri": s.EffectiveKeystonePublicEndpoint(),
		"username":             s.ServiceUser.Username,
		"project_name":         s.ServiceUser.ProjectName,
		"user_domain_name":     s.ServiceUser.UserDomainName,
		"project_domain_name":  s.ServiceUser.ProjectDomainName,
	}
	if m := s.Cache.MemcachedServers(); m != "" {
		out["memcached_servers"] = m
	}
	if s.Region != "" {
		out["region_name"] = s.Region
	}
	return out
}

// Database is the database section: the DSN placeholder, retries without
// end while the server is briefly away, connections recycled before the
// server's idle timeout.
func Database() map[string]string {
	return map[string]string{
		"connection":              DSNPlaceholder,
		"max_retries":             "-1",
		"connection_recycle_time": "600",
	}
}

// LoggingConf is a Python logging fileConfig sending JSON lines to stderr.
func LoggingConf(level string) ini.File {
	return ini.File{
		"loggers":        {"keys": "root"},
		"handlers":       {"keys": "stderr"},
		"formatters":     {"keys": "json"},
		"logger_root":    {"level": level, "handlers": "stderr"},
		"handler_stderr": {"class": "StreamHandler", "args": "(sys.stderr,)", "formatter": "json"},
		"formatter_json": {"class": "oslo_log.formatters.JSONFormatter"},
	}
}

// JSONLogging reports whether logging.conf is rendered.
func JSONLogging(l *serviceapi.LoggingSpec) bool {
	return l != nil && l.Format == serviceapi.LogFormatJSON
}

// LogLevel is the root logger's level, INFO when unset.
func LogLevel(l *serviceapi.LoggingSpec) string {
	if l == nil || l.Level == "" {
		return "INFO"
	}
	return l.Level
}

func perLoggerLevels(levels map[string]serviceapi.LogLevel) string {
	pairs := make([]string, 0, len(levels))
	for name, level := range levels {
		pairs = append(pairs, name+"="+string(level))
	}
	sort.Strings(pairs)
	return strings.Join(pairs, ",")
}

func withKey(section map[string]string, key, value string) map[string]string {
	out := map[string]string{key: value}
	for k, v := range section {
		if k != key {
			out[k] = v
		}
	}
	return out
}

// MergePolicy overlays inline rules on the rules of the policy ConfigMap.
func MergePolicy(fromConfigMap, inline map[string]string) map[string]string {
	out := map[string]string{}
	maps.Copy(out, fromConfigMap)
	maps.Copy(out, inline)
	return out
}

// RefuseRejected repeats the admission rule at render time, for objects that
// reached the API without the webhook: a rejected key never gets rendered.
func RefuseRejected(owned extraconfig.Registry, extra map[string]map[string]string) error {
	return refuseRejected(owned, extra, "spec.extraConfig")
}

// refuseRejected refuses a rejected owned key in sections, which field names:
// neither extraConfig nor a plugin may put a credential in the file or
// switch on what the operator renders only from typed fields.
func refuseRejected(owned extraconfig.Registry, sections map[string]map[string]string, field string) error {
	for _, section := range slices.Sorted(maps.Keys(sections)) {
		for _, key := range slices.Sorted(maps.Keys(sections[section])) {
			if o, ok := owned.Lookup(section, key); ok && o.Rejected {
				return fmt.Errorf("%s [%s] %s is managed via %s and cannot be set (%s)", field, section, key, o.Owner, o.Impact)
			}
		}
	}
	return nil
}

// Plugins are the spec.plugins sections, merged below the operator's
// defaults (Input.Plugins).
func Plugins(plugins []serviceapi.PluginSpec) ini.File {
	f := make(ini.File, len(plugins))
	for _, p := range plugins {
		f[p.ConfigSection] = maps.Clone(p.Config)
		if f[p.ConfigSection] == nil {
			f[p.ConfigSection] = map[string]string{}
		}
	}
	return f
}
