package webhook

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/robfig/cron/v3"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// The fuzzed objects are shaped as the API server hands them over: decoded
// from JSON, inside the CRD schema's bounds. Whatever they admit must never put a CR or LF into
// a file barbican reads, nor a refused credential key.

var (
	fuzzOnce      sync.Once
	fuzzValidator *Validator
)

// throughJSON is obj as the webhook decodes it from the API server's JSON.
func throughJSON[T any](t *testing.T, obj T) (out T) {
	t.Helper()
	raw, err := json.Marshal(obj)
	if err == nil {
		err = json.Unmarshal(raw, &out)
	}
	if err != nil {
		t.Fatalf("JSON round trip: %v", err)
	}
	return out
}

func crlf(s string) bool { return strings.ContainsAny(s, "\r\n") }

func fits(s string, lo, hi int) bool {
	n := utf8.RuneCountInString(s)
	return n >= lo && n <= hi
}

// barbicanInput are the fuzzed fields of a Barbican, each written verbatim
// somewhere (barbican.conf, the paste file, the CronJob).
type barbicanInput struct {
	region, hostname, server, logger, section, key, value,
	plugSection, plugKey, plugValue, mwKey, mwValue, schedule string
	retention int32
}

var seedBarbican = barbicanInput{"RegionOne", "kms.example.org", "memcached:11211", "barbican.plugin", "DEFAULT",
	"max_allowed_secret_in_bytes", "20000", "p11_crypto_plugin", "slot_id", "1", "audit_map_file", "/etc/x", "1 0 * * *", 90}

var pluginSection = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,128}$`)

func FuzzBarbicanValidation(f *testing.F) {
	add := func(in barbicanInput) {
		f.Add(in.region, in.hostname, in.server, in.logger, in.section, in.key, in.value,
			in.plugSection, in.plugKey, in.plugValue, in.mwKey, in.mwValue, in.schedule, in.retention)
	}
	add(seedBarbican)
	add(barbicanInput{"R\n", "h\r", "m\n", "l\r\n", "vault_plugin", "root_token_id", "t", "keystone_authtoken", "password", "p",
		"k\n", "v", "@every 1h", 0})
	add(barbicanInput{"", "h", "m", "l", "secretstore:vault", "x", "y\n", "vault_plugin", "approle_secret_id", "s", "k", "v\r",
		"0 0 * * 7", -3})
	add(barbicanInput{"\u00e9", "h\u2028", "m", "\x00", "secretstore:", "a", "b", "secretstore:x", "", "v", "", "", "@daily", 1})
	f.Fuzz(func(t *testing.T, region, hostname, server, logger, section, key, value,
		plugSection, plugKey, plugValue, mwKey, mwValue, schedule string, retention int32) {
		checkBarbican(t, barbicanInput{region, hostname, server, logger, section, key, value,
			plugSection, plugKey, plugValue, mwKey, mwValue, schedule, retention})
	})
}

// checkBarbican validates in and checks what an admitted Barbican would
// write; it reports whether the Barbican was admitted.
func checkBarbican(t *testing.T, in barbicanInput) bool {
	t.Helper()
	if !fits(in.hostname, 1, 1<<20) || !fits(in.logger, 1, 1<<20) || !fits(in.server, 1, 1<<20) ||
		len(in.schedule) > 128 || !pluginSection.MatchString(in.plugSection) {
		return false // the schema refuses these before the webhook
	}
	fuzzOnce.Do(func() { fuzzValidator = barbicanValidator(t, nil) })
	b := valid()
	b.Spec.Region = in.region
	b.Spec.Gateway = &serviceapi.GatewaySpec{Hostname: in.hostname, ParentRef: serviceapi.GatewayParentRef{Name: "gw"}}
	b.Spec.Cache = serviceapi.CacheSpec{Servers: []string{in.server}, Backend: serviceapi.DefaultCacheBackend}
	b.Spec.Logging.PerLoggerLevels = map[string]serviceapi.LogLevel{in.logger: "INFO"}
	b.Spec.ExtraConfig = map[string]map[string]string{in.section: {in.key: in.value}}
	b.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: in.plugSection, Config: map[string]string{in.plugKey: in.plugValue}}}
	b.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "m", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter,
		Config: map[string]string{in.mwKey: in.mwValue}}}
	b.Spec.DBClean = &barbicanv1.DBCleanSpec{Schedule: in.schedule, RetentionDays: new(in.retention)}
	b = throughJSON(t, b)

	if _, err := fuzzValidator.Validate(context.Background(), b, nil); err != nil {
		if !apierrors.IsInvalid(err) {
			t.Fatalf("refusal is not a 422 Invalid: %v", err)
		}
		return false
	}
	s := &b.Spec
	verbatim := []string{s.Region, s.Gateway.Hostname, s.Cache.Servers[0]}
	for name := range s.Logging.PerLoggerLevels {
		verbatim = append(verbatim, name)
	}
	for sec, kv := range s.ExtraConfig {
		verbatim = append(verbatim, sec)
		for k, v := range kv {
			verbatim = append(verbatim, k, v)
			if o, ok := render.OwnedKeys.Lookup(sec, k); ok && o.Rejected {
				t.Fatalf("admitted refused key [%s] %s in extraConfig", sec, k)
			}
		}
	}
	for k, v := range s.Plugins[0].Config {
		verbatim = append(verbatim, k, v)
		if o, ok := render.OwnedKeys.Lookup(s.Plugins[0].ConfigSection, k); ok && o.Rejected {
			t.Fatalf("admitted refused key [%s] %s in a plugin", s.Plugins[0].ConfigSection, k)
		}
	}
	for k, v := range s.Middleware[0].Config {
		verbatim = append(verbatim, k, v)
	}
	for _, v := range verbatim {
		if crlf(v) {
			t.Fatalf("admitted a CR or LF in %q\n%+v", v, in)
		}
	}
	if d := s.DBClean; d.RetentionDays != nil && *d.RetentionDays < 1 {
		t.Fatalf("admitted retentionDays %d", *d.RetentionDays)
	}
	if _, err := cron.ParseStandard(s.DBClean.Schedule); s.DBClean.Schedule != "" && err != nil {
		t.Fatalf("admitted schedule %q fails the CronJob API's parser: %v", s.DBClean.Schedule, err)
	}
	return true
}

// nastyStrings are what an INI reader or cron parser reads differently
// from what was written.
var nastyStrings = []string{"\r", "\n", "\r\n", "x\ny", "", " ", "\x00", "\u00e9", "\u2028", "\xff", "[DEFAULT]", "a=b", "%(x)s",
	"@every 1h", "@reboot", "60 * * * *", "* * * * 7", "*/0 * * * *"}

// Each nasty string in each field of an admitted Barbican, in every go
// test run: admitted means nothing unsafe is written.
func TestAdmittedBarbicanWritesNoCRLF(t *testing.T) {
	fields := []func(in *barbicanInput) *string{
		func(in *barbicanInput) *string { return &in.region }, func(in *barbicanInput) *string { return &in.hostname },
		func(in *barbicanInput) *string { return &in.server }, func(in *barbicanInput) *string { return &in.logger },
		func(in *barbicanInput) *string { return &in.section }, func(in *barbicanInput) *string { return &in.key },
		func(in *barbicanInput) *string { return &in.value }, func(in *barbicanInput) *string { return &in.plugKey },
		func(in *barbicanInput) *string { return &in.plugValue }, func(in *barbicanInput) *string { return &in.mwKey },
		func(in *barbicanInput) *string { return &in.mwValue }, func(in *barbicanInput) *string { return &in.schedule },
	}
	admitted, refused := 0, 0
	for _, f := range fields {
		for _, nasty := range nastyStrings {
			for _, v := range []string{nasty, "a" + nasty + "b", nasty + "x"} {
				in := seedBarbican
				*f(&in) = v
				if checkBarbican(t, in) {
					admitted++
				} else {
					refused++
				}
			}
		}
	}
	if admitted == 0 || refused == 0 {
		t.Fatalf("admitted %d, refused %d: the property was not exercised both ways", admitted, refused)
	}
}

// dnsSubdomain is the API server's own bound on a store name.
var dnsSubdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

// storeInput are the fuzzed fields of a store.
type storeInput struct {
	name, url, instance, kvMountpoint, namespace, optKey, optValue string
	managed                                                        bool
}

func FuzzStoreValidation(f *testing.F) {
	add := func(in storeInput) {
		f.Add(in.name, in.url, in.instance, in.kvMountpoint, in.namespace, in.optKey, in.optValue, in.managed)
	}
	add(storeInput{"vault", "https://vault.example.org:8200", "openbao", "barbican", "", "timeout", "30", true})
	add(storeInput{"vault", "https://vault.example.org:8200", "openbao", "secret", "tenant", "timeout", "30", false})
	add(storeInput{"default", "https://v\n", "bao\r\n", "kv\n", "ns\r", "vault_url", "x\ny", false})
	add(storeInput{"s", "https://", "b", "barbican", "n", "Root_Token_ID", "t", true})
	f.Fuzz(func(t *testing.T, name, url, instance, kvMountpoint, namespace, optKey, optValue string, managed bool) {
		checkStore(t, storeInput{name, url, instance, kvMountpoint, namespace, optKey, optValue, managed})
	})
}

// checkStore validates in and checks every value the store would put into
// barbican.conf; it reports whether the store was admitted.
func checkStore(t *testing.T, in storeInput) bool {
	t.Helper()
	if len(in.name) > 253 || !dnsSubdomain.MatchString(in.name) || !fits(in.kvMountpoint, 1, 256) || !fits(in.namespace, 0, 256) ||
		!fits(in.optKey, 0, 256) || !fits(in.optValue, 0, 1024) {
		return false // the schema refuses these before the webhook
	}
	s := managedStore("openstack", in.name, "barbican")
	s.Spec.OpenBao.KVMountpoint, s.Spec.OpenBao.Namespace = in.kvMountpoint, in.namespace
	if in.managed {
		if !fits(in.instance, 1, 253) {
			return false
		}
		s.Spec.OpenBao.InstanceRef.Name = in.instance
	} else {
		if !strings.HasPrefix(in.url, "https://") || len(in.url) > 2048 {
			return false
		}
		s.Spec.OpenBao.InstanceRef = nil
		s.Spec.OpenBao.Server = &barbicanv1.OpenBaoServer{URL: in.url, CredentialsSecretRef: barbicanv1.SecretRef{Name: "creds"}}
	}
	s.Spec.ExtraOptions = map[string]string{in.optKey: in.optValue}
	s = throughJSON(t, s)

	if _, err := storeValidator(nil).Validate(context.Background(), s, nil); err != nil {
		if !apierrors.IsInvalid(err) {
			t.Fatalf("refusal is not a 422 Invalid: %v", err)
		}
		return false
	}
	o := s.Spec.OpenBao
	vaultURL := "https://" + in.instance + ".openstack.svc:8200"
	if o.Server != nil {
		vaultURL = o.Server.URL
	}
	rendered := []string{"secretstore:" + s.Name, vaultURL, o.EffectiveKVMountpoint(), o.Namespace}
	for k, v := range s.Spec.ExtraOptions {
		rendered = append(rendered, k, v)
		if _, denied := render.DeniedExtraOptions[strings.ToLower(k)]; denied || !optionName.MatchString(k) {
			t.Fatalf("admitted extraOptions key %q", k)
		}
	}
	for _, v := range rendered {
		if crlf(v) {
			t.Fatalf("admitted a CR or LF in the rendered value %q\n%+v", v, in)
		}
	}
	if s.Managed() && (o.EffectiveKVMountpoint() != "barbican" || o.Namespace != "") {
		t.Fatalf("admitted a managed store off its pins: %+v", o)
	}
	return true
}

// Each nasty string in each string field of an admitted store.
func TestAdmittedStoreRendersNoCRLF(t *testing.T) {
	seed := storeInput{"vault", "https://vault.example.org", "openbao", "barbican", "", "timeout", "30", true}
	fields := []func(in *storeInput) *string{
		func(in *storeInput) *string { return &in.url }, func(in *storeInput) *string { return &in.instance },
		func(in *storeInput) *string { return &in.kvMountpoint }, func(in *storeInput) *string { return &in.namespace },
		func(in *storeInput) *string { return &in.optKey }, func(in *storeInput) *string { return &in.optValue },
	}
	admitted, refused := 0, 0
	for _, managed := range []bool{true, false} {
		for _, f := range fields {
			for _, nasty := range nastyStrings {
				for _, v := range []string{nasty, "a" + nasty + "b", "https://" + nasty} {
					in := seed
					in.managed = managed
					*f(&in) = v
					if checkStore(t, in) {
						admitted++
					} else {
						refused++
					}
				}
			}
		}
	}
	if admitted == 0 || refused == 0 {
		t.Fatalf("admitted %d, refused %d: the property was not exercised both ways", admitted, refused)
	}
}
