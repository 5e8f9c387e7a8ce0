package render

import (
	"cmp"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/lib/ini"
)

// Store is one credential-ready store as the SecretStores step hands it over.
type Store struct {
	// Name of the BarbicanSecretStore: the [secretstore:<name>] suffix.
	Name string
	// Default marks the global default store, the only one that feeds [vault_plugin].
	Default bool
	// URL is https://<instance>.<ns>.svc:8200 (managed) or spec.openBao.server.url (brownfield).
	URL string
	// KVMountpoint is the KV v2 mount; barbican when empty.
	KVMountpoint string
	// Namespace is the OpenBao namespace header; omitted when empty.
	Namespace string
	// RoleID is the credentials Secret's role-id.
	RoleID string
	// HasCA says a CA bundle is mounted at CAFile (ssl_ca_crt_file).
	HasCA bool
	// ExtraOptions are spec.extraOptions; keys the operator renders or
	// denies are dropped.
	ExtraOptions map[string]string
}

// Sections of barbican.conf the stores render.
const (
	sectionSecretStore = "secretstore"
	sectionVault       = "vault_plugin"
	storeSectionPrefix = sectionSecretStore + ":"
	vaultPlugin        = "vault_plugin"
)

// DeniedExtraOptions are the [vault_plugin] and store-section keys
// spec.extraOptions never sets (in any case), each with why: the operator
// renders them, they carry a credential that must stay out of the file, or
// they would switch the plugin. The webhook refuses them with the reason;
// the renderer drops them.
var DeniedExtraOptions = map[string]string{
	"vault_url":           "rendered from spec.openBao.server.url or spec.openBao.instanceRef",
	"use_ssl":             "rendered from the server URL's scheme",
	"ssl_ca_crt_file":     "rendered from spec.openBao.server.caBundleSecretRef or the instance's CA",
	"approle_role_id":     "rendered from the credentials Secret's role-id",
	"approle_secret_id":   "delivered by environment variable only; in the file it would leak into the mounted config Secret",
	"root_token_id":       "the vault plugin prefers it over AppRole: an unscoped credential in plain text",
	"kv_mountpoint":       "rendered from spec.openBao.kvMountpoint",
	"namespace":           "rendered from spec.openBao.namespace",
	"secret_store_plugin": "the operator renders it in [secretstore:<store>]",
	"crypto_plugin":       "belongs to [secretstore:<store>], which the operator renders",
	"global_default":      "rendered from spec.isDefault",
}

// extraOptionKey is the admission pattern of an extraOptions key.
var extraOptionKey = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// StoreSections returns the [secretstore], [secretstore:<name>] and
// [vault_plugin] sections for the stores, sorted by name. Exactly one store
// must be the default; [vault_plugin] derives from it alone. An error names
// the store whose name or [vault_plugin] entry cannot be rendered verbatim
// (a CR/LF or other control character, outer whitespace, quotes, a
// malformed extraOptions key) but never the value, which the caller then
// treats as an invalid projection.
func StoreSections(stores []Store) (map[string]map[string]string, error) {
	sorted := slices.SortedFunc(slices.Values(stores), func(a, b Store) int { return cmp.Compare(a.Name, b.Name) })
	out := map[string]map[string]string{}
	names := make([]string, 0, len(sorted))
	var def *Store
	for i := range sorted {
		s := &sorted[i]
		if err := checkStoreName(s.Name); err != nil {
			return nil, fmt.Errorf("secret store %q: %w", s.Name, err)
		}
		if _, dup := out[storeSectionPrefix+s.Name]; dup {
			return nil, fmt.Errorf("secret store %q is listed twice", s.Name)
		}
		section := map[string]string{"secret_store_plugin": vaultPlugin}
		if s.Default {
			if def != nil {
				return nil, fmt.Errorf("secret stores %q and %q are both the default", def.Name, s.Name)
			}
			def = s
			section["global_default"] = "True"
		}
		out[storeSectionPrefix+s.Name] = section
		names = append(names, s.Name)
	}
	if def == nil {
		return nil, fmt.Errorf("none of the %d secret stores is the default", len(sorted))
	}
	out[sectionSecretStore] = map[string]string{
		"enable_multiple_secret_stores": "true",
		"stores_lookup_suffix":          strings.Join(names, ","),
	}
	vault, err := vaultSection(def)
	if err != nil {
		return nil, fmt.Errorf("secret store %q: %w", def.Name, err)
	}
	out[sectionVault] = vault
	return out, nil
}

// checkStoreName refuses a name that would not render as one section name
// and one stores_lookup_suffix entry.
func checkStoreName(name string) error {
	if name == "" || strings.ContainsAny(name, ", ") {
		return fmt.Errorf("name %w: empty, or contains ',' or a space", ini.ErrUnsafe)
	}
	_, err := ini.Render(ini.File{storeSectionPrefix + name: {}})
	return err
}

// vaultSection is [vault_plugin] from the default store: the operator's keys,
// then the extraOptions that do not collide with them. The assembled section
// is checked as ini.Render would, so nothing unsafe reaches ConfigData.
func vaultSection(s *Store) (map[string]string, error) {
	if s.URL == "" || s.RoleID == "" {
		return nil, fmt.Errorf("[%s] needs a server URL and a role ID", sectionVault)
	}
	out := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(s.ExtraOptions)) {
		if _, denied := DeniedExtraOptions[strings.ToLower(k)]; denied {
			continue
		}
		if !extraOptionKey.MatchString(k) {
			return nil, fmt.Errorf("extraOptions key %q %w: want [A-Za-z0-9_]+", k, ini.ErrUnsafe)
		}
		out[k] = s.ExtraOptions[k]
	}
	out["vault_url"] = s.URL
	out["use_ssl"] = strconv.FormatBool(strings.HasPrefix(strings.ToLower(s.URL), "https://"))
	out["approle_role_id"] = s.RoleID
	out["kv_mountpoint"] = cmp.Or(s.KVMountpoint, barbicanv1.DefaultKVMountpoint)
	if s.HasCA {
		out["ssl_ca_crt_file"] = CAFile
	}
	if s.Namespace != "" {
		out["namespace"] = s.Namespace
	}
	if _, err := ini.Render(ini.File{sectionVault: out}); err != nil {
		return nil, err
	}
	return out, nil
}
