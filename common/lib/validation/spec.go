// Package validation holds the admission rules of the shared API structs.
// Every function accumulates field errors; the webhook joins them into one
// 422 Invalid.
package validation

import (
	"fmt"
	"net/url"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

func hasCRLF(s string) bool { return strings.ContainsAny(s, "\r\n") }

// NoCRLF refuses CR or LF in a value rendered verbatim into a config file.
func NoCRLF(p *field.Path, v string) field.ErrorList {
	if hasCRLF(v) {
		return field.ErrorList{field.Invalid(p, v, "must not contain CR or LF")}
	}
	return nil
}

// Image enforces exactly one of tag or digest.
func Image(p *field.Path, i serviceapi.ImageSpec) field.ErrorList {
	if (i.Tag == "") == (i.Digest == "") {
		return field.ErrorList{field.Invalid(p, i.Reference(), "exactly one of image.tag or image.digest must be set")}
	}
	return nil
}

// Database enforces clusterRef xor host and Dynamic ⇒ clusterRef.
func Database(p *field.Path, d serviceapi.DatabaseSpec) field.ErrorList {
	var errs field.ErrorList
	if (d.ClusterRef == nil) == (d.Host == "") {
		errs = append(errs, field.Invalid(p, "", "exactly one of database.clusterRef or database.host must be set"))
	}
	if d.Dynamic() && d.ClusterRef == nil {
		errs = append(errs, field.Invalid(p.Child("credentialsMode"), d.CredentialsMode, "credentialsMode Dynamic requires database.clusterRef"))
	}
	return errs
}

// Cache enforces clusterRef xor servers and no CR/LF in either.
func Cache(p *field.Path, c serviceapi.CacheSpec) field.ErrorList {
	var errs field.ErrorList
	if (c.ClusterRef == nil) == (len(c.Servers) == 0) {
		errs = append(errs, field.Invalid(p, "", "exactly one of cache.clusterRef or cache.servers must be set"))
	}
	if c.ClusterRef != nil {
		errs = append(errs, NoCRLF(p.Child("clusterRef", "name"), c.ClusterRef.Name)...)
	}
	for i, s := range c.Servers {
		errs = append(errs, NoCRLF(p.Child("servers").Index(i), s)...)
	}
	return errs
}

// KeystoneURL checks a Keystone endpoint: parses, http or https, with a host.
func KeystoneURL(p *field.Path, v string, required bool) field.ErrorList {
	if v == "" {
		if required {
			return field.ErrorList{field.Required(p, "must be set")}
		}
		return nil
	}
	u, err := url.Parse(v)
	switch {
	case err != nil || hasCRLF(v):
		return field.ErrorList{field.Invalid(p, v, "must be a valid URL")}
	case u.Scheme != "http" && u.Scheme != "https":
		return field.ErrorList{field.Invalid(p, v, "scheme must be http or https")}
	case u.Hostname() == "":
		return field.ErrorList{field.Invalid(p, v, "must include a host")}
	case u.User != nil:
		// The URL lands in a ConfigMap; credentials belong in the service-user Secret.
		return field.ErrorList{field.Invalid(p, u.Redacted(), "must not carry user information")}
	}
	return nil
}

// ServiceUser refuses CR/LF in the four identity fields.
func ServiceUser(p *field.Path, s serviceapi.ServiceUserSpec) field.ErrorList {
	var errs field.ErrorList
	errs = append(errs, NoCRLF(p.Child("username"), s.Username)...)
	errs = append(errs, NoCRLF(p.Child("projectName"), s.ProjectName)...)
	errs = append(errs, NoCRLF(p.Child("userDomainName"), s.UserDomainName)...)
	errs = append(errs, NoCRLF(p.Child("projectDomainName"), s.ProjectDomainName)...)
	return errs
}

// Gateway requires hostname and parentRef.name.
func Gateway(p *field.Path, g *serviceapi.GatewaySpec) field.ErrorList {
	if g == nil {
		return nil
	}
	var errs field.ErrorList
	if g.Hostname == "" {
		errs = append(errs, field.Required(p.Child("hostname"), "must be set"))
	}
	if g.ParentRef.Name == "" {
		errs = append(errs, field.Required(p.Child("parentRef", "name"), "must be set"))
	}
	return errs
}

// NetworkPolicy requires at least one ingress source (fail closed), each
// naming its namespaces.
func NetworkPolicy(p *field.Path, n *serviceapi.NetworkPolicySpec) field.ErrorList {
	if n != nil && len(n.Ingress) == 0 {
		return field.ErrorList{field.Required(p.Child("ingress"), "at least one ingress source is required; an empty list would block all traffic")}
	}
	var errs field.ErrorList
	for i, src := range n.GetIngress() {
		if src.NamespaceSelector == nil {
			errs = append(errs, field.Required(p.Child("ingress").Index(i).Child("namespaceSelector"),
				"name the source namespaces; {} admits every namespace"))
		}
	}
	return errs
}

// SecretStoreRef requires a name and a known kind.
func SecretStoreRef(p *field.Path, s *serviceapi.SecretStoreRef) field.ErrorList {
	if s == nil {
		return nil
	}
	var errs field.ErrorList
	if s.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), "must be set"))
	}
	if s.Kind != "" && s.Kind != serviceapi.ClusterSecretStoreKind && s.Kind != serviceapi.SecretStoreKind {
		errs = append(errs, field.NotSupported(p.Child("kind"), s.Kind, []string{serviceapi.ClusterSecretStoreKind, serviceapi.SecretStoreKind}))
	}
	return errs
}

// TargetClusterRef requires a name, and on update an unchanged ref.
func TargetClusterRef(p *field.Path, newRef, oldRef *serviceapi.TargetClusterRef, update bool) field.ErrorList {
	var errs field.ErrorList
	if newRef != nil && newRef.Name == "" {
		errs = append(errs, field.Required(p.Child("name"), "must be set"))
	}
	if update && !sameRef(newRef, oldRef) {
		errs = append(errs, field.Invalid(p, refName(newRef),
			fmt.Sprintf("targetClusterRef is immutable (was %q): children cannot move between clusters", refName(oldRef))))
	}
	return errs
}

func sameRef(a, b *serviceapi.TargetClusterRef) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && a.Name == b.Name)
}

func refName(r *serviceapi.TargetClusterRef) string {
	if r == nil {
		return ""
	}
	return r.Name
}

var logLevels = []string{"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}

// Logging checks the enums and per-logger names and levels.
func Logging(p *field.Path, l *serviceapi.LoggingSpec) field.ErrorList {
	if l == nil {
		return nil
	}
	var errs field.ErrorList
	if l.Format != "" && l.Format != serviceapi.LogFormatText && l.Format != serviceapi.LogFormatJSON {
		errs = append(errs, field.NotSupported(p.Child("format"), l.Format, []string{serviceapi.LogFormatText, serviceapi.LogFormatJSON}))
	}
	if l.Level != "" && !slices.Contains(logLevels, l.Level) {
		errs = append(errs, field.NotSupported(p.Child("level"), l.Level, logLevels))
	}
	for _, name := range sortedKeys(l.PerLoggerLevels) {
		lp := p.Child("perLoggerLevels").Key(name)
		if name == "" {
			errs = append(errs, field.Invalid(lp, name, "logger name must not be empty"))
		}
		errs = append(errs, NoCRLF(lp, name)...)
		if !slices.Contains(logLevels, string(l.PerLoggerLevels[name])) {
			errs = append(errs, field.NotSupported(lp, l.PerLoggerLevels[name], logLevels))
		}
	}
	return errs
}
