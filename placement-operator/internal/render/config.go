// Package render turns a Placement into what the operator writes: config
// files, command lines and child objects. Every function is pure.
package render

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/c5c3/openstack-operators/common/api/shared"
	"github.com/c5c3/openstack-operators/common/extraconfig"
	"github.com/c5c3/openstack-operators/common/ini"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// Paths inside the API and db-sync containers.
const (
	ConfigDir      = "/etc/placement"
	ConfigFile     = ConfigDir + "/placement.conf"
	PolicyFile     = ConfigDir + "/policy.yaml"
	LoggingFile    = ConfigDir + "/logging.conf"
	DBTLSDir       = "/etc/placement-db-tls"
	WSGIFile       = "/var/lib/openstack/bin/placement-api"
	DSNPlaceholder = "mysql+pymysql://placeholder"
)

// Data keys of the config ConfigMap.
const (
	KeyPlacementConf = "placement.conf"
	KeyPolicy        = "policy.yaml"
	KeyLogging       = "logging.conf"
)

// ConfigData renders the ConfigMap data: placement.conf, plus policy.yaml when
// rules are given and logging.conf for JSON logging. policyRules is the merged
// rule map (ConfigMap rules overlaid by inline ones).
func ConfigData(p *placementv1.Placement, policyRules map[string]string) (map[string]string, error) {
	if err := refuseRejected(p.Spec.ExtraConfig); err != nil {
		return nil, err
	}
	conf := extraconfig.Merge(Defaults(p), p.Spec.ExtraConfig)
	data := map[string]string{}
	if len(policyRules) > 0 {
		conf["oslo_policy"] = withKey(conf["oslo_policy"], "policy_file", PolicyFile)
		raw, err := yaml.Marshal(policyRules)
		if err != nil {
			return nil, fmt.Errorf("rendering policy.yaml: %w", err)
		}
		data[KeyPolicy] = string(raw)
	}
	out, err := ini.Render(conf)
	if err != nil {
		return nil, fmt.Errorf("rendering placement.conf: %w", err)
	}
	data[KeyPlacementConf] = string(out)
	if jsonLogging(p) {
		lc, err := ini.Render(LoggingConf(logLevel(p)))
		if err != nil {
			return nil, fmt.Errorf("rendering logging.conf: %w", err)
		}
		data[KeyLogging] = string(lc)
	}
	return data, nil
}

// Defaults is placement.conf before extraConfig is merged.
func Defaults(p *placementv1.Placement) ini.File {
	s := p.Spec
	defaults := map[string]string{
		"use_stderr": "true",
		"debug":      strconv.FormatBool(s.Logging != nil && s.Logging.Debug != nil && *s.Logging.Debug),
	}
	if s.Logging != nil && len(s.Logging.PerLoggerLevels) > 0 {
		defaults["default_log_levels"] = perLoggerLevels(s.Logging.PerLoggerLevels)
	}
	if jsonLogging(p) {
		defaults["log_config_append"] = LoggingFile
	}
	public := s.KeystonePublicEndpoint
	if public == "" {
		public = s.KeystoneEndpoint
	}
	authtoken := map[string]string{
		"auth_type":            "password",
		"auth_url":             s.KeystoneEndpoint,
		"www_authenticate_uri": public,
		"username":             s.ServiceUser.Username,
		"project_name":         s.ServiceUser.ProjectName,
		"user_domain_name":     s.ServiceUser.UserDomainName,
		"project_domain_name":  s.ServiceUser.ProjectDomainName,
		"memcached_servers":    s.Cache.MemcachedServers(),
	}
	if s.Region != "" {
		authtoken["region_name"] = s.Region
	}
	return ini.File{
		"DEFAULT": defaults,
		"api":     {"auth_strategy": "keystone"},
		"placement_database": {
			"connection":              DSNPlaceholder,
			"max_retries":             "-1",
			"connection_recycle_time": "600",
		},
		"keystone_authtoken": authtoken,
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

func jsonLogging(p *placementv1.Placement) bool {
	return p.Spec.Logging != nil && p.Spec.Logging.Format == shared.LogFormatJSON
}

func logLevel(p *placementv1.Placement) string {
	if p.Spec.Logging == nil || p.Spec.Logging.Level == "" {
		return "INFO"
	}
	return p.Spec.Logging.Level
}

func perLoggerLevels(levels map[string]shared.LogLevel) string {
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
	for k, v := range fromConfigMap {
		out[k] = v
	}
	for k, v := range inline {
		out[k] = v
	}
	return out
}

// refuseRejected repeats the admission rule at render time, for objects that
// reached the API without the webhook: a rejected key never gets rendered.
func refuseRejected(extra map[string]map[string]string) error {
	for _, section := range slices.Sorted(maps.Keys(extra)) {
		for _, key := range slices.Sorted(maps.Keys(extra[section])) {
			if o, ok := OwnedKeys.Lookup(section, key); ok && o.Rejected {
				return fmt.Errorf("spec.extraConfig [%s] %s is managed via %s and cannot be overridden (%s)", section, key, o.Owner, o.Impact)
			}
		}
	}
	return nil
}
