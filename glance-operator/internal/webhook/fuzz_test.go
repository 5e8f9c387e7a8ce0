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
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/ini"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// Objects reach the validators as from the API server: through JSON and
// within the CRD schema. What they admit must render, except iniUnsafe's
// class in free-form strings, refused only for CR/LF at admission (§5).

var (
	fuzzOnce      sync.Once
	fuzzValidator *Validator
)

// iniUnsafe reports what the INI renderer alone refuses: another control
// character, edge whitespace, matching quotes, ']' in a section, '=' or ':'
// in a key (ConfigError keeps last-good; a backend is skipped).
func iniUnsafe(section, key, value string) bool {
	_, err := ini.Render(ini.File{section: {key: value}})
	return err != nil
}

// roundTrip is obj as the webhook decodes it from the API server's JSON.
func roundTrip[T any](t *testing.T, obj T) T {
	raw, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var out T
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func schemaLength(s string, n int) bool { return utf8.RuneCountInString(s) <= n }

var pluginSection = regexp.MustCompile(`^[A-Za-z0-9_.:-]{1,128}$`)

// glanceInput are the fuzzed fields of a Glance.
type glanceInput struct {
	host, propKey, propValue, role, schedule, section, key, value,
	plugSection, plugKey, plugValue, mwKey, mwValue, region string
	retention  int32
	stagingMi  int64
	decompress bool
}

// seedGlance is admitted; the other seeds and nastyStrings start from it.
var seedGlance = glanceInput{"images.example.org", "owner", "cloud", "admin", "1 0 * * *", "DEFAULT", "show_image_direct_url", "true",
	"my_plugin", "k", "v", "audit_map_file", "/etc/x", "RegionOne", 30, 10240, true}

func FuzzGlanceValidation(f *testing.F) {
	add := func(in glanceInput) {
		f.Add(in.host, in.propKey, in.propValue, in.role, in.schedule, in.section, in.key, in.value,
			in.plugSection, in.plugKey, in.plugValue, in.mwKey, in.mwValue, in.region, in.retention, in.stagingMi, in.decompress)
	}
	add(seedGlance)
	add(glanceInput{"a,b", "k:", " v", "r,", "@every 1h", "my_plugin", "k", "v\x00", "my_plugin", "k", "\"q\"", "use", "x", "R\x01", 0, 0, false})
	add(glanceInput{"'h", "'a", "b'", "'", "0 0 * * 7", "os_glance_staging_store", "x=y", " v", "image_import_opts", "image_import_plugins", "[x]",
		"paste.filter_factory", "%", "\u00e9", -5, 1, true})
	add(glanceInput{"h", "\"p", "\"", "\"r\"", "", "import_filtering_opts", "allowed_hosts", "[]", "sec", "k", "v", "k", "v\n", "", 1, 1024, false})
	f.Fuzz(func(t *testing.T, host, propKey, propValue, role, schedule, section, key, value,
		plugSection, plugKey, plugValue, mwKey, mwValue, region string, retention int32, stagingMi int64, decompress bool) {
		checkGlance(t, glanceInput{host, propKey, propValue, role, schedule, section, key, value,
			plugSection, plugKey, plugValue, mwKey, mwValue, region, retention, stagingMi, decompress})
	})
}

// nastyStrings are what oslo.config reads differently from what was written.
var nastyStrings = []string{",", " x", "x ", "x\x00", "x\ty", "'x", "x'", "'", "\"x\"", "a:b", "s]", "k=v", "#k", ";k", "[k",
	"%(x)s", "\u00e9", "\ufeffx", "x\u00a0", "\x7f", "\xff", "\r", "\n", ""}

// Each nasty string in each string field of an admitted Glance: admitted
// means rendered, apart from the documented class.
func TestAdmittedGlanceRenders(t *testing.T) {
	fields := []func(in *glanceInput) *string{
		func(in *glanceInput) *string { return &in.host }, func(in *glanceInput) *string { return &in.propKey },
		func(in *glanceInput) *string { return &in.propValue }, func(in *glanceInput) *string { return &in.role },
		func(in *glanceInput) *string { return &in.schedule }, func(in *glanceInput) *string { return &in.section },
		func(in *glanceInput) *string { return &in.key }, func(in *glanceInput) *string { return &in.value },
		func(in *glanceInput) *string { return &in.plugSection }, func(in *glanceInput) *string { return &in.plugKey },
		func(in *glanceInput) *string { return &in.plugValue }, func(in *glanceInput) *string { return &in.mwKey },
		func(in *glanceInput) *string { return &in.mwValue }, func(in *glanceInput) *string { return &in.region },
	}
	admitted := 0
	for _, f := range fields {
		for _, nasty := range nastyStrings {
			for _, v := range []string{nasty, "a" + nasty + "b", nasty + "x", "x" + nasty} {
				in := seedGlance
				*f(&in) = v
				if checkGlance(t, in) {
					admitted++
				}
			}
		}
	}
	if admitted == 0 {
		t.Fatal("nothing admitted: the property was never checked")
	}
}

// checkGlance validates in and, when admitted, renders it; it reports
// whether the Glance was admitted.
func checkGlance(t *testing.T, in glanceInput) bool {
	t.Helper()
	if !schemaLength(in.host, 253) || in.host == "" || !schemaLength(in.propKey, 255) || !schemaLength(in.propValue, 255) ||
		in.role == "" || !schemaLength(in.role, 255) || len(in.schedule) > 128 || !pluginSection.MatchString(in.plugSection) {
		return false
	}
	fuzzOnce.Do(func() { fuzzValidator = glanceValidator(t, nil) })
	g := valid()
	g.Spec.Region = in.region
	g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{DisallowedHosts: []string{in.host}}
	g.Spec.ImportPlugins = inject(map[string]string{in.propKey: in.propValue}, in.role)
	if in.decompress {
		g.Spec.ImportPlugins.Decompression = &glancev1.DecompressionSpec{}
	}
	g.Spec.DBPurge = &glancev1.DBPurgeSpec{Schedule: in.schedule, RetentionDays: new(in.retention)}
	g.Spec.Staging = &glancev1.StagingSpec{SizeLimit: resource.NewQuantity(in.stagingMi<<20, resource.BinarySI)}
	g.Spec.ImageCache = &glancev1.ImageCacheSpec{}
	g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "m", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter,
		Config: map[string]string{in.mwKey: in.mwValue}}}
	g.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: in.plugSection, Config: map[string]string{in.plugKey: in.plugValue}}}
	g.Spec.ExtraConfig = map[string]map[string]string{in.section: {in.key: in.value}}
	g = roundTrip(t, g)

	if _, err := fuzzValidator.Validate(context.Background(), g, nil); err != nil {
		if !apierrors.IsInvalid(err) {
			t.Fatalf("refusal is not a 422 Invalid: %v", err)
		}
		return false
	}
	if _, err := cron.ParseStandard(g.Spec.DBPurge.Schedule); g.Spec.DBPurge.Schedule != "" && err != nil {
		t.Fatalf("admitted schedule %q fails the CronJob API: %v", g.Spec.DBPurge.Schedule, err)
	}
	if _, err := render.ConfigData(g, []string{"store"}, "store", nil); err != nil {
		s := g.Spec
		var sec, k, v string
		for sec = range s.ExtraConfig {
			k, v = anyEntry(s.ExtraConfig[sec])
		}
		pk, pv := anyEntry(s.Plugins[0].Config)
		mk, mv := anyEntry(s.Middleware[0].Config)
		if iniUnsafe(sec, k, v) || iniUnsafe(s.Plugins[0].ConfigSection, pk, pv) ||
			iniUnsafe("filter:m", mk, strings.ReplaceAll(mv, "%", "%%")) || iniUnsafe("keystone_authtoken", "region_name", s.Region) {
			return true // the documented class, refused by the renderer
		}
		t.Fatalf("admitted Glance does not render: %v\n%+v", err, in)
	}
	return true
}

func anyValue(m map[string]string) string {
	_, v := anyEntry(m)
	return v
}

// anyEntry is the one entry of a one-entry map.
func anyEntry(m map[string]string) (k, v string) {
	for k, v = range m {
		return k, v
	}
	return "", ""
}

// DNS-1123 subdomain: what the API server admits as a GlanceBackend name.
var dnsSubdomain = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)

func FuzzBackendValidation(f *testing.F) {
	f.Add("minio", "http://minio:9000", "images", "eu-1", "s3_store_thread_pools", "10")
	f.Add("os-glance-x", "https://h", "b", "", "s3_store_host", "h")
	f.Add("database", "http://h\n[x]", "b\x00", " r", "store_description", "v\r")
	f.Add("a.b", "https://h", "b", "", "k-ey", "'v'")
	f.Fuzz(func(t *testing.T, name, host, bucket, region, optKey, optValue string) {
		if len(name) > 253 || !dnsSubdomain.MatchString(name) || !strings.HasPrefix(host, "http") || len(host) > 2048 ||
			bucket == "" || !schemaLength(bucket, 255) || !schemaLength(region, 128) || !schemaLength(optKey, 256) || !schemaLength(optValue, 1024) {
			return
		}
		b := backend(name, true)
		b.Spec.S3.Host, b.Spec.S3.Bucket, b.Spec.S3.Region = host, bucket, region
		b.Spec.ExtraOptions = map[string]string{optKey: optValue}
		b = roundTrip(t, b)
		if _, err := backendValidator(nil).Validate(context.Background(), b, nil); err != nil {
			if !apierrors.IsInvalid(err) {
				t.Fatalf("refusal is not a 422 Invalid: %v", err)
			}
			return
		}
		s3 := b.Spec.S3
		conf, skipped, err := render.BackendsConf([]render.Backend{{Name: b.Name, Default: true, S3: *s3,
			AccessKeyID: "a", SecretAccessKey: "s", ExtraOptions: b.Spec.ExtraOptions}})
		if err != nil {
			t.Fatalf("BackendsConf: %v", err)
		}
		if reason, ok := skipped[b.Name]; ok {
			if iniUnsafe(b.Name, "s3_store_host", s3.Host) || iniUnsafe(b.Name, "s3_store_bucket", s3.Bucket) ||
				iniUnsafe(b.Name, "s3_store_region_name", s3.Region) || iniUnsafe(b.Name, "k", anyValue(b.Spec.ExtraOptions)) {
				return // the documented class: skipped with GlanceBackendSkipped
			}
			t.Fatalf("admitted backend skipped: %s\n%s", reason, conf)
		}
	})
}
