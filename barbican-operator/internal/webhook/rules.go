package webhook

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/admit"
	"github.com/c5c3/openstack-operators/common/lib/validation"
)

// nameLength bounds a new Barbican's name so {name}-db-clean fits the
// 52-character CronJob name limit. Stored longer names keep working: the
// CronJob then gets a hashed name.
func nameLength(name string) field.ErrorList {
	if len(name) <= barbicanv1.MaxNameLength {
		return nil
	}
	return field.ErrorList{field.Invalid(field.NewPath("metadata", "name"), name, fmt.Sprintf(
		"must be at most %d characters, so the CronJob %s-db-clean fits the 52-character CronJob name limit; choose a shorter name",
		barbicanv1.MaxNameLength, name))}
}

// gatewayHostname refuses CR or LF in spec.gateway.hostname: it is written
// verbatim into [DEFAULT] host_href as https://<hostname>.
func gatewayHostname(p *field.Path, g *serviceapi.GatewaySpec) field.ErrorList {
	if g == nil {
		return nil
	}
	return validation.NoCRLF(p, g.Hostname)
}

// dbClean checks what the CronJob is built from; unset fields resolve at
// reconcile time (90 days, "1 0 * * *").
func dbClean(p *field.Path, d *barbicanv1.DBCleanSpec) field.ErrorList {
	if d == nil {
		return nil
	}
	var errs field.ErrorList
	if r := d.RetentionDays; r != nil && *r < 1 {
		errs = append(errs, field.Invalid(p.Child("retentionDays"), *r,
			"must be at least 1 day: --min-days 0 would delete every soft-deleted row on the next run"))
	}
	if d.Schedule == "" {
		return errs // the operator's schedule
	}
	return append(errs, admit.CronSchedule(p.Child("schedule"), d.Schedule)...)
}

// pluginConfig holds spec.plugins to the guards of extraConfig: a plugin's
// section is written verbatim below the operator's keys, so a CR/LF or a
// refused credential key does the same harm there.
func pluginConfig(p *field.Path, plugins []serviceapi.PluginSpec) field.ErrorList {
	var errs field.ErrorList
	for i, pl := range plugins {
		refused := func(key string) string {
			if o, ok := render.OwnedKeys.Lookup(pl.ConfigSection, key); ok && o.Rejected {
				return fmt.Sprintf("[%s] %s cannot be set by a plugin: it is managed via %s (%s)", pl.ConfigSection, key, o.Owner, o.Impact)
			}
			return ""
		}
		errs = append(errs, verbatimEntries(p.Index(i).Child("config"), pl.Config, refused)...)
	}
	return errs
}

// middlewareConfig refuses what would break a [filter:<name>] section of
// the paste file, which is written verbatim.
func middlewareConfig(p *field.Path, mws []serviceapi.MiddlewareSpec) field.ErrorList {
	var errs field.ErrorList
	for i, m := range mws {
		errs = append(errs, verbatimEntries(p.Index(i).Child("config"), m.Config, nil)...)
	}
	return errs
}

// verbatimEntries checks the entries of an INI section written verbatim:
// a key must be non-empty, neither key nor value may hold CR or LF, and
// refused, when set, names why a key is forbidden ("" = allowed). Values
// may be secrets and stay out of the messages.
func verbatimEntries(p *field.Path, entries map[string]string, refused func(key string) string) field.ErrorList {
	var errs field.ErrorList
	for _, key := range slices.Sorted(maps.Keys(entries)) {
		kp := p.Key(key)
		switch {
		case key == "":
			errs = append(errs, field.Invalid(kp, key, "key must not be empty"))
		case strings.ContainsAny(key, "\r\n"):
			errs = append(errs, field.Invalid(kp, key, "key must not contain CR or LF: it is written verbatim into an INI file"))
		}
		if strings.ContainsAny(entries[key], "\r\n") {
			errs = append(errs, field.Invalid(kp, field.OmitValueType{}, "value must not contain CR or LF: it is written verbatim into an INI file"))
		}
		if refused == nil {
			continue
		}
		if why := refused(key); why != "" {
			errs = append(errs, field.Forbidden(kp, why))
		}
	}
	return errs
}
