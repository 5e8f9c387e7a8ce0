package webhook

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/lib/validation"
)

// reservedStoreNames are barbican.conf's own section names: a store named
// like one (in any case) reads as that section in stores_lookup_suffix and
// in every message about [secretstore:<store>].
var reservedStoreNames = []string{"default", "database", "keystone_authtoken", "secretstore", "vault_plugin",
	"queue", "oslo_policy", "oslo_middleware", "healthcheck"}

// optionName is what oslo.config reads as an option name.
var optionName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// StoreSpec runs every store rule that needs no lookup; old is nil on
// create. It re-checks the CRD's unions, pins and immutability, so an
// object reaching the webhook by any path obeys them.
func StoreSpec(s, old *barbicanv1.BarbicanSecretStore) field.ErrorList {
	var errs field.ErrorList
	if old == nil {
		errs = append(errs, storeNameLength(s.Name)...)
	}
	errs = append(errs, reservedStoreName(s.Name)...)
	sp := field.NewPath("spec")
	errs = append(errs, storeUnion(sp, &s.Spec)...)
	errs = append(errs, openBao(sp.Child("openBao"), s.Spec.OpenBao)...)
	errs = append(errs, extraOptions(sp.Child("extraOptions"), s.Spec.ExtraOptions)...)
	if old != nil {
		errs = append(errs, storeImmutable(sp, &s.Spec, &old.Spec)...)
	}
	return errs
}

// storeNameLength bounds a new store's name so <store>-approle fits the
// 63-character limit of a label value.
func storeNameLength(name string) field.ErrorList {
	if len(name) <= barbicanv1.MaxStoreNameLength {
		return nil
	}
	return field.ErrorList{field.Invalid(field.NewPath("metadata", "name"), name, fmt.Sprintf(
		"must be at most %d characters, so the Secret %s-approle fits the 63-character limit; choose a shorter name",
		barbicanv1.MaxStoreNameLength, name))}
}

func reservedStoreName(name string) field.ErrorList {
	if !slices.ContainsFunc(reservedStoreNames, func(r string) bool { return strings.EqualFold(r, name) }) {
		return nil
	}
	return field.ErrorList{field.Invalid(field.NewPath("metadata", "name"), name,
		"is reserved: the name is the [secretstore:<store>] suffix and must not be one of barbican.conf's own sections ("+
			strings.Join(reservedStoreNames, ", ")+"), in any case; choose another name")}
}

// storeUnion ties openBao to type OpenBao, the only type.
func storeUnion(sp *field.Path, s *barbicanv1.BarbicanSecretStoreSpec) field.ErrorList {
	switch {
	case s.Type != barbicanv1.StoreOpenBao:
		errs := field.ErrorList{field.NotSupported(sp.Child("type"), s.Type, []string{barbicanv1.StoreOpenBao})}
		if s.OpenBao != nil {
			errs = append(errs, field.Forbidden(sp.Child("openBao"), "is only allowed when type is OpenBao"))
		}
		return errs
	case s.OpenBao == nil:
		return field.ErrorList{field.Required(sp.Child("openBao"),
			"is required when type is OpenBao: set openBao.instanceRef (managed) or openBao.server (brownfield)")}
	}
	return nil
}

// openBao checks the mode union, the brownfield URL, the managed pins and
// CR/LF in everything rendered into [vault_plugin].
func openBao(p *field.Path, o *barbicanv1.OpenBaoSpec) field.ErrorList {
	if o == nil {
		return nil
	}
	var errs field.ErrorList
	if (o.InstanceRef == nil) == (o.Server == nil) {
		errs = append(errs, field.Invalid(p, field.OmitValueType{},
			"needs exactly one of openBao.instanceRef (a managed instance) and openBao.server (a brownfield server)"))
	}
	if o.InstanceRef != nil {
		// The name becomes the host of vault_url.
		errs = append(errs, validation.NoCRLF(p.Child("instanceRef", "name"), o.InstanceRef.Name)...)
		if m := o.EffectiveKVMountpoint(); m != barbicanv1.DefaultKVMountpoint {
			errs = append(errs, field.Invalid(p.Child("kvMountpoint"), m,
				"a managed store (openBao.instanceRef) must keep kvMountpoint barbican, the mount the instance is provisioned with"))
		}
		if o.Namespace != "" {
			errs = append(errs, field.Forbidden(p.Child("namespace"),
				"is for a brownfield server (openBao.server) only; remove it from a managed store"))
		}
	}
	if o.Server != nil {
		errs = append(errs, serverURL(p.Child("server", "url"), o.Server.URL)...)
	}
	errs = append(errs, validation.NoCRLF(p.Child("kvMountpoint"), o.KVMountpoint)...)
	errs = append(errs, validation.NoCRLF(p.Child("namespace"), o.Namespace)...)
	return errs
}

// serverURL wants https://<host>[:port][/path], written into vault_url.
func serverURL(p *field.Path, v string) field.ErrorList {
	const want = "must be an https URL with a host, e.g. https://openbao.example.org:8200"
	if strings.ContainsAny(v, "\r\n") {
		return field.ErrorList{field.Invalid(p, v, "must not contain CR or LF")}
	}
	if !strings.HasPrefix(v, "https://") {
		return field.ErrorList{field.Invalid(p, v, want+": barbican reaches OpenBao over TLS only")}
	}
	if u, err := url.Parse(v); err != nil || u.Hostname() == "" {
		return field.ErrorList{field.Invalid(p, v, want)}
	}
	return nil
}

// extraOptions checks the keys added to [vault_plugin]: option names outside
// the operator's keys, values without CR or LF (values stay out of the
// messages).
func extraOptions(p *field.Path, opts map[string]string) field.ErrorList {
	var errs field.ErrorList
	for _, k := range slices.Sorted(maps.Keys(opts)) {
		kp := p.Key(k)
		if !optionName.MatchString(k) {
			errs = append(errs, field.Invalid(kp, k, "key must match ^[A-Za-z0-9_]+$, an oslo.config option name"))
		} else if why, denied := render.DeniedExtraOptions[strings.ToLower(k)]; denied {
			errs = append(errs, field.Forbidden(kp, fmt.Sprintf("%s cannot be set through extraOptions: %s", k, why)))
		}
		if strings.ContainsAny(opts[k], "\r\n") {
			errs = append(errs, field.Invalid(kp, field.OmitValueType{}, "value must not contain CR or LF: it is written verbatim into [vault_plugin]"))
		}
	}
	return errs
}

// storeImmutable re-checks the CRD's transition rules: barbicanRef, type,
// the openBao mode and kvMountpoint never change.
func storeImmutable(sp *field.Path, s, old *barbicanv1.BarbicanSecretStoreSpec) field.ErrorList {
	var errs field.ErrorList
	immutable := func(p *field.Path, now, was, why string) {
		if now != was {
			errs = append(errs, field.Invalid(p, now, fmt.Sprintf("is immutable (was %s): %s", strconv.QuoteToASCII(was), why)))
		}
	}
	immutable(sp.Child("barbicanRef", "name"), s.BarbicanRef.Name, old.BarbicanRef.Name,
		"a store cannot move to another Barbican; create a new store instead")
	immutable(sp.Child("type"), s.Type, old.Type, "create a new store instead")
	if s.OpenBao != nil && old.OpenBao != nil {
		if now, was := mode(s.OpenBao), mode(old.OpenBao); now != was {
			errs = append(errs, field.Invalid(sp.Child("openBao"), field.OmitValueType{}, fmt.Sprintf(
				"the openBao mode is immutable: it was %s and is now %s; instanceRef and server cannot be swapped, create a new store instead",
				was, now)))
		}
		immutable(sp.Child("openBao", "kvMountpoint"), s.OpenBao.EffectiveKVMountpoint(), old.OpenBao.EffectiveKVMountpoint(),
			"the secrets already written live under the old mount")
	}
	return errs
}

// mode names the openBao mode in the immutability message.
func mode(o *barbicanv1.OpenBaoSpec) string {
	if o.InstanceRef != nil {
		return "managed (instanceRef)"
	}
	return "brownfield (server)"
}
