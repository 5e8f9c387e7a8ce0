package webhook

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/admit"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// Bounds of the schema, repeated here for what reaches the webhook alone.
const (
	maxListItems  = 64
	maxHostLength = 253
	maxEntry      = 255 // injectMetadata names, values and roles, in code points
)

var (
	minVolume   = resource.MustParse("1Mi")
	minInterval = time.Minute
)

// listItem refuses what oslo.config's list and dict types split or strip, as
// render does: empty, a control character (CR, LF), a comma, edge whitespace,
// and in a dict key (sep) a colon. what names the entry in the message.
func listItem(p *field.Path, what, v string, sep bool) field.ErrorList {
	var why string
	switch {
	case v == "":
		why = "must not be empty"
	case strings.ContainsFunc(v, unicode.IsControl):
		why = "must not contain CR, LF or another control character"
	case strings.Contains(v, ","):
		why = "must not contain ',': oslo.config splits list entries on it"
	case sep && strings.Contains(v, ":"):
		why = "must not contain ':': oslo.config splits a name from its value on it"
	case strings.TrimSpace(v) != v:
		why = "must not have leading or trailing whitespace: oslo.config strips it"
	default:
		return nil
	}
	return field.ErrorList{field.Invalid(p, v, what+" "+why)}
}

// maxLength counts code points, as the schema does.
func maxLength(p *field.Path, v string, n int) field.ErrorList {
	if utf8.RuneCountInString(v) > n {
		return field.ErrorList{field.TooLongCharacters(p, v, n)}
	}
	return nil
}

func tooMany(p *field.Path, n int) field.ErrorList {
	if n > maxListItems {
		return field.ErrorList{field.TooMany(p, n, maxListItems)}
	}
	return nil
}

// exclusive refuses an allow-list and a deny-list both non-empty (schema repeat).
func exclusive(p *field.Path, allowed, disallowed string, na, nd int) field.ErrorList {
	if na > 0 && nd > 0 {
		return field.ErrorList{field.Invalid(p.Child(disallowed), field.OmitValueType{},
			fmt.Sprintf("%s and %s are exclusive: glance applies only the allow-list when it is non-empty", allowed, disallowed))}
	}
	return nil
}

func importFiltering(p *field.Path, f *glancev1.ImportFilteringSpec) field.ErrorList {
	if f == nil {
		return nil
	}
	var errs field.ErrorList
	errs = append(errs, exclusive(p, "allowedSchemes", "disallowedSchemes", len(f.AllowedSchemes), len(f.DisallowedSchemes))...)
	errs = append(errs, exclusive(p, "allowedHosts", "disallowedHosts", len(f.AllowedHosts), len(f.DisallowedHosts))...)
	errs = append(errs, exclusive(p, "allowedPorts", "disallowedPorts", len(f.AllowedPorts), len(f.DisallowedPorts))...)
	for name, list := range map[string][]string{"allowedSchemes": f.AllowedSchemes, "disallowedSchemes": f.DisallowedSchemes} {
		errs = append(errs, tooMany(p.Child(name), len(list))...)
		for i, s := range list {
			if s != glancev1.SchemeHTTP && s != glancev1.SchemeHTTPS {
				errs = append(errs, field.NotSupported(p.Child(name).Index(i), s, []string{glancev1.SchemeHTTP, glancev1.SchemeHTTPS}))
			}
		}
	}
	for name, list := range map[string][]string{"allowedHosts": f.AllowedHosts, "disallowedHosts": f.DisallowedHosts} {
		errs = append(errs, tooMany(p.Child(name), len(list))...)
		for i, h := range list {
			errs = append(errs, listItem(p.Child(name).Index(i), "host", h, false)...)
			errs = append(errs, maxLength(p.Child(name).Index(i), h, maxHostLength)...)
		}
	}
	for name, list := range map[string][]int32{"allowedPorts": f.AllowedPorts, "disallowedPorts": f.DisallowedPorts} {
		errs = append(errs, tooMany(p.Child(name), len(list))...)
		for i, port := range list {
			if port < 1 || port > 65535 {
				errs = append(errs, field.Invalid(p.Child(name).Index(i), port, "must be a port from 1 to 65535"))
			}
		}
	}
	sortErrors(errs)
	return errs
}

// sortErrors orders errors by field, so the answer does not follow map order.
func sortErrors(errs field.ErrorList) {
	slices.SortStableFunc(errs, func(a, b *field.Error) int { return strings.Compare(a.Field, b.Field) })
}

func importPlugins(p *field.Path, ip *glancev1.ImportPluginsSpec, s *glancev1.StagingSpec) field.ErrorList {
	if ip == nil {
		return nil
	}
	var errs field.ErrorList
	// A decompressed image can be far larger than the upload, so the default
	// staging bound would be a guess: the user must choose one.
	if ip.Decompression != nil && (s == nil || (s.SizeLimit == nil && !s.Unbounded)) {
		errs = append(errs, field.Invalid(p.Child("decompression"), field.OmitValueType{},
			"needs an explicit staging bound: set spec.staging.sizeLimit or spec.staging.unbounded"))
	}
	if c := ip.Conversion; c != nil && c.OutputFormat != "" && !slices.Contains([]string{glancev1.FormatQCOW2, glancev1.FormatRaw, glancev1.FormatVMDK}, c.OutputFormat) {
		errs = append(errs, field.NotSupported(p.Child("conversion", "outputFormat"), c.OutputFormat,
			[]string{glancev1.FormatQCOW2, glancev1.FormatRaw, glancev1.FormatVMDK}))
	}
	if m := ip.InjectMetadata; m != nil {
		errs = append(errs, injectMetadata(p.Child("injectMetadata"), m)...)
	}
	return errs
}

// injectMetadata checks [inject_metadata_properties]: inject renders as
// name:value,... sorted by name, ignore_user_roles as role,...
func injectMetadata(p *field.Path, m *glancev1.InjectMetadataSpec) field.ErrorList {
	var errs field.ErrorList
	pp := p.Child("properties")
	switch n := len(m.Properties); {
	case n == 0:
		errs = append(errs, field.Required(pp, "at least one property; remove injectMetadata to turn the plugin off"))
	case n > maxListItems:
		errs = append(errs, field.TooMany(pp, n, maxListItems))
	}
	names := slices.Sorted(maps.Keys(m.Properties))
	for _, k := range names {
		kp, v := pp.Key(k), m.Properties[k]
		errs = append(errs, listItem(kp, "name", k, true)...)
		errs = append(errs, maxLength(kp, k, maxEntry)...)
		if v != "" {
			errs = append(errs, listItem(kp, "value", v, false)...)
		}
		errs = append(errs, maxLength(kp, v, maxEntry)...)
	}
	if len(names) > 0 {
		// An empty last value renders as "name:", ending in the colon.
		errs = append(errs, unquoted(pp, names[0], cmp.Or(m.Properties[names[len(names)-1]], ":"))...)
	}
	rp := p.Child("ignoreUserRoles")
	errs = append(errs, tooMany(rp, len(m.IgnoreUserRoles))...)
	for i, r := range m.IgnoreUserRoles {
		errs = append(errs, listItem(rp.Index(i), "role", r, false)...)
		errs = append(errs, maxLength(rp.Index(i), r, maxEntry)...)
	}
	if n := len(m.IgnoreUserRoles); n > 0 {
		errs = append(errs, unquoted(rp, m.IgnoreUserRoles[0], m.IgnoreUserRoles[n-1])...)
	}
	return errs
}

// unquoted refuses a rendered list starting with first and ending with last
// whose first and last characters are the same quote: oslo.config strips
// such quotes from the whole value.
func unquoted(p *field.Path, first, last string) field.ErrorList {
	if first == "" || last == "" {
		return nil
	}
	if q := first[0]; (q == '"' || q == '\'') && last[len(last)-1] == q {
		return field.ErrorList{field.Invalid(p, field.OmitValueType{},
			fmt.Sprintf("the rendered list would start and end with %c, which oslo.config strips", q))}
	}
	return nil
}

func dbPurge(p *field.Path, d *glancev1.DBPurgeSpec) field.ErrorList {
	if d == nil {
		return nil
	}
	var errs field.ErrorList
	if d.RetentionDays != nil && *d.RetentionDays < 1 {
		errs = append(errs, field.Invalid(p.Child("retentionDays"), *d.RetentionDays,
			"must be at least 1: 0 would purge every soft-deleted row at once"))
	}
	if d.Schedule != "" {
		errs = append(errs, admit.CronSchedule(p.Child("schedule"), d.Schedule)...)
	}
	return errs
}

// atLeast1Mi refuses a volume bound below 1Mi.
func atLeast1Mi(p *field.Path, q *resource.Quantity) field.ErrorList {
	if q != nil && q.Cmp(minVolume) < 0 {
		return field.ErrorList{field.Invalid(p, q.String(), "must be at least 1Mi")}
	}
	return nil
}

func staging(p *field.Path, s *glancev1.StagingSpec) field.ErrorList {
	if s == nil {
		return nil
	}
	errs := atLeast1Mi(p.Child("sizeLimit"), s.SizeLimit)
	if s.SizeLimit != nil && s.Unbounded {
		errs = append(errs, field.Invalid(p.Child("unbounded"), true, "sizeLimit and unbounded are exclusive"))
	}
	return errs
}

func imageCache(p *field.Path, c *glancev1.ImageCacheSpec) field.ErrorList {
	if c == nil {
		return nil
	}
	errs := atLeast1Mi(p.Child("sizeLimit"), c.SizeLimit)
	if i := c.MaintenanceInterval; i != nil && i.Duration < minInterval {
		errs = append(errs, field.Invalid(p.Child("maintenanceInterval"), i.Duration.String(), "must be at least 1m"))
	}
	return errs
}

// middleware refuses a filter the paste file cannot hold next to the
// operator's sections, config that would replace the filter factory, and
// CR or LF, as for extraConfig.
func middleware(p *field.Path, mws []serviceapi.MiddlewareSpec, imageCache bool) field.ErrorList {
	var errs field.ErrorList
	for i, m := range mws {
		ip := p.Index(i)
		if render.ReservedMiddlewareName(m.Name, imageCache) {
			why := "collides with a paste section or filter the operator renders"
			if m.Name == "cache" {
				why = "is the image cache's filter while spec.imageCache is set"
			}
			errs = append(errs, field.Invalid(ip.Child("name"), m.Name, why))
		}
		for _, k := range slices.Sorted(maps.Keys(m.Config)) {
			kp := ip.Child("config").Key(k)
			if k == "use" || strings.HasPrefix(k, "paste.") {
				errs = append(errs, field.Forbidden(kp, "would replace the filter factory; set filterFactory"))
			}
			errs = append(errs, crlf(kp, k, m.Config[k])...)
		}
	}
	return errs
}

// plugins refuses in spec.plugins what extraConfig refuses: an empty key, CR
// or LF, a rejected owned key; render refuses the same.
func plugins(p *field.Path, ps []serviceapi.PluginSpec) field.ErrorList {
	var errs field.ErrorList
	for i, pl := range ps {
		cp := p.Index(i).Child("config")
		for _, k := range slices.Sorted(maps.Keys(pl.Config)) {
			kp := cp.Key(k)
			if k == "" {
				errs = append(errs, field.Invalid(kp, k, "key must not be empty"))
			}
			errs = append(errs, crlf(kp, k, pl.Config[k])...)
			if o, ok := render.OwnedKeys.Lookup(pl.ConfigSection, k); ok && o.Rejected {
				errs = append(errs, field.Forbidden(kp, fmt.Sprintf("%s is managed via %s (%s)", k, o.Owner, o.Impact)))
			}
		}
	}
	return errs
}

// crlf refuses CR or LF in a key or value; the value may be a secret and
// stays out of the message.
func crlf(p *field.Path, k, v string) field.ErrorList {
	var errs field.ErrorList
	if strings.ContainsAny(k, "\r\n") {
		errs = append(errs, field.Invalid(p, k, "key must not contain CR or LF"))
	}
	if strings.ContainsAny(v, "\r\n") {
		errs = append(errs, field.Invalid(p, field.OmitValueType{}, "value must not contain CR or LF"))
	}
	return errs
}
