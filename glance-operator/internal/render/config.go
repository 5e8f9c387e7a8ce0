package render

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/c5c3/openstack-operators/common/lib/ini"
	"github.com/c5c3/openstack-operators/common/lib/osconfig"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// Data keys of the config ConfigMap.
const (
	KeyGlanceAPIConf = "glance-api.conf"
	KeyPasteINI      = "glance-api-paste.ini"
	KeyPolicy        = osconfig.PolicyKey
	KeyLogging       = osconfig.LoggingKey
)

// enabledImportMethods are the import methods the API offers.
const enabledImportMethods = "[web-download,copy-image]"

// ConfigData renders the config ConfigMap data: glance-api.conf and
// glance-api-paste.ini, plus policy.yaml when rules are given and
// logging.conf for JSON logging. enabled are the rendered backend names
// (sorted), defaultBackend the one default among them; policyRules is the
// merged rule map. Merge order: spec.plugins < operator defaults < extraConfig.
func ConfigData(g *glancev1.Glance, enabled []string, defaultBackend string, policyRules map[string]string) (map[string]string, error) {
	if defaultBackend == "" || !slices.Contains(enabled, defaultBackend) {
		return nil, fmt.Errorf("default backend %q is not among the enabled backends %v", defaultBackend, enabled)
	}
	defaults, err := Defaults(g, enabled, defaultBackend)
	if err != nil {
		return nil, err
	}
	data, err := osconfig.Render(osconfig.Input{
		MainKey:     KeyGlanceAPIConf,
		Plugins:     osconfig.Plugins(g.Spec.Plugins),
		Defaults:    defaults,
		Extra:       g.Spec.ExtraConfig,
		Owned:       OwnedKeys,
		PolicyRules: policyRules,
		PolicyFile:  PolicyFile,
		Logging:     g.Spec.Logging,
	})
	if err != nil {
		return nil, err
	}
	paste, err := PasteINI(g)
	if err != nil {
		return nil, err
	}
	data[KeyPasteINI] = paste
	return data, nil
}

// Defaults is glance-api.conf before spec.plugins and extraConfig are merged.
func Defaults(g *glancev1.Glance, enabled []string, defaultBackend string) (ini.File, error) {
	def := osconfig.Default(g.Spec.Logging, LoggingFile)
	// Sorted here too, so a caller's order never changes the ConfigMap hash.
	def["enabled_backends"] = EnabledBackends(slices.Sorted(slices.Values(enabled)))
	def["enabled_import_methods"] = enabledImportMethods
	if n, ok := Workers(g); ok {
		def["workers"] = strconv.Itoa(int(n))
	}
	if g.Spec.ImageCache != nil {
		def["image_cache_dir"] = ImageCacheDir
		def["image_cache_driver"] = "sqlite"
		def["image_cache_max_size"] = strconv.FormatInt(ImageCacheMaxSize(g), 10)
	}
	f := ini.File{
		"DEFAULT":                 def,
		"database":                osconfig.Database(),
		"keystone_authtoken":      osconfig.KeystoneAuthtoken(&g.Spec.ServiceSpec),
		"glance_store":            {"default_backend": defaultBackend},
		"os_glance_staging_store": {"filesystem_store_datadir": StagingDir},
		"os_glance_tasks_store":   {"filesystem_store_datadir": TasksWorkDir},
		"paste_deploy":            {"flavor": "keystone", "config_file": PasteFile},
	}
	filtering, err := importFilteringSection(EffectiveImportFiltering(g))
	if err != nil {
		return nil, err
	}
	f["import_filtering_opts"] = filtering
	f["image_import_opts"] = map[string]string{"image_import_plugins": bracketList(EffectiveImportPlugins(g))}
	if p := g.Spec.ImportPlugins; p != nil {
		if p.Conversion != nil {
			f["image_conversion"] = map[string]string{"output_format": EffectiveOutputFormat(p.Conversion)}
		}
		if p.InjectMetadata != nil {
			inject, err := injectSection(p.InjectMetadata)
			if err != nil {
				return nil, err
			}
			f["inject_metadata_properties"] = inject
		}
	}
	return f, nil
}

func importFilteringSection(f ImportFiltering) (map[string]string, error) {
	lists := []struct {
		key   string
		items []string
	}{
		{"allowed_schemes", f.AllowedSchemes},
		{"disallowed_schemes", f.DisallowedSchemes},
		{"allowed_hosts", f.AllowedHosts},
		{"disallowed_hosts", f.DisallowedHosts},
		{"allowed_ports", ports(f.AllowedPorts)},
		{"disallowed_ports", ports(f.DisallowedPorts)},
	}
	out := make(map[string]string, len(lists))
	for _, l := range lists {
		for _, item := range l.items {
			if err := checkListItem(item); err != nil {
				return nil, fmt.Errorf("importFiltering %s entry %q %w", l.key, item, err)
			}
		}
		out[l.key] = bracketList(l.items)
	}
	return out, nil
}

func injectSection(m *glancev1.InjectMetadataSpec) (map[string]string, error) {
	pairs := make([]string, 0, len(m.Properties))
	for _, k := range slices.Sorted(maps.Keys(m.Properties)) {
		v := m.Properties[k]
		if err := checkListItem(k); err != nil || strings.Contains(k, ":") {
			return nil, fmt.Errorf("importPlugins.injectMetadata property name %q cannot be rendered: empty, edge spaces, ',' or ':'", k)
		}
		if v != "" && checkListItem(v) != nil {
			return nil, fmt.Errorf("importPlugins.injectMetadata property %q value cannot be rendered: edge spaces or ','", k)
		}
		pairs = append(pairs, k+":"+v)
	}
	roles := EffectiveIgnoreUserRoles(m)
	for _, r := range roles {
		if err := checkListItem(r); err != nil {
			return nil, fmt.Errorf("importPlugins.injectMetadata ignoreUserRoles entry %q %w", r, err)
		}
	}
	return map[string]string{
		"inject":            strings.Join(pairs, ","),
		"ignore_user_roles": strings.Join(roles, ","),
	}, nil
}

// checkListItem refuses what oslo.config's list and dict types would split
// or strip, so an entry never turns into two or loses characters.
func checkListItem(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("is empty")
	case strings.Contains(s, ","):
		return fmt.Errorf("contains ','")
	case strings.TrimSpace(s) != s:
		return fmt.Errorf("has leading or trailing whitespace")
	}
	return nil
}

// bracketList renders an oslo.config bounded list: [a,b], or [] when empty.
func bracketList(items []string) string {
	return "[" + strings.Join(items, ",") + "]"
}

func ports(in []int32) []string {
	out := make([]string, len(in))
	for i, p := range in {
		out[i] = strconv.Itoa(int(p))
	}
	return out
}
