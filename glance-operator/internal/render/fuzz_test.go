package render_test

import (
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/ini"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// No control character ever reaches backends.conf: a backend carrying one is
// skipped (never rendered, reason without the value); a rendered one reads
// back exactly; the healthy sibling is always rendered.
func FuzzBackendsConf(f *testing.F) {
	f.Add("minio", "http://minio:9000", "images", "eu-1", "AKIA", "secret", "s3_store_thread_pools", "10")
	f.Add("minio", "http://minio:9000", "images", "", "AKIA", "secret\n", "k", "v")
	f.Add("minio", "http://minio:9000\r\n[evil]", "images", "", "AKIA", "s", "k", "v")
	f.Add("minio", "http://minio:9000", "images", "r", "AK\x00IA", "s", "k", "v\x1b")
	f.Add("x]y", "http://h", "b", "", "a", "s", "k=v", " v ")
	f.Add("database", "http://h", "b", "", "a", "s", "k", "\"q\"")
	f.Fuzz(func(t *testing.T, name, host, bucket, region, access, secret, extraKey, extraValue string) {
		if name == "zz-healthy" {
			return
		}
		fuzzed := render.Backend{
			Name: name, S3: glancev1.S3Spec{Host: host, Bucket: bucket, Region: region},
			AccessKeyID: access, SecretAccessKey: secret, ExtraOptions: map[string]string{extraKey: extraValue},
		}
		healthy := render.Backend{Name: "zz-healthy", S3: glancev1.S3Spec{Host: "https://s3.example.org", Bucket: "b"}, AccessKeyID: "a", SecretAccessKey: "s"}
		conf, skipped, err := render.BackendsConf([]render.Backend{fuzzed, healthy})
		if err != nil {
			t.Fatalf("BackendsConf: %v", err)
		}
		if testenv.HasControl(conf) || strings.Contains(conf, "\r") {
			t.Fatalf("control character rendered:\n%q", conf)
		}
		if !strings.Contains(conf, "[zz-healthy]\n") {
			t.Fatalf("healthy sibling not rendered:\n%s", conf)
		}
		_, isSkipped := skipped[name]
		if testenv.AnyControl(name, host, bucket, region, access, secret, extraKey, extraValue) && !isSkipped {
			t.Fatalf("a backend with a control character was not skipped:\n%q", conf)
		}
		if isSkipped {
			if len(secret) >= 12 && !strings.Contains(name, secret) && strings.Contains(skipped[name], secret) {
				t.Fatalf("skip reason leaks the secret: %q", skipped[name])
			}
			return
		}
		parsed, err := ini.Parse([]byte(conf))
		if err != nil {
			t.Fatalf("rendered backends.conf does not parse: %v\n%s", err, conf)
		}
		if got := parsed[name]["s3_store_secret_key"]; got != secret {
			t.Fatalf("secret key reads back as %q, want %q", got, secret)
		}
		if got, ok := parsed[name][extraKey]; !strings.HasPrefix(extraKey, "s3_store_") && (!ok || got != extraValue) {
			t.Fatalf("extra option %q reads back as %q, want %q", extraKey, got, extraValue)
		}
	})
}

// ConfigData refuses what it cannot render safely; whatever it renders holds
// no control character and reads back as given.
func FuzzConfigData(f *testing.F) {
	f.Add("DEFAULT", "show_image_direct_url", "true", "images.example.org", "owner", "cloud", "strict")
	f.Add("DEFAULT", "x", "a\nb", "h", "k", "v", "m")
	f.Add("glance_store", "k", "v", "evil\r\n[DEFAULT]", "k", "v", "m")
	f.Add("s", "k", "v", "h", "k\x00", "v", "m")
	f.Add("s", "k", "v", "h", "k", "v", "100%\x7f")
	f.Add("import_filtering_opts", "allowed_hosts", "[]", "h", "k", "v", "m")
	f.Fuzz(func(t *testing.T, section, key, value, host, propKey, propValue, mwValue string) {
		g := minimal()
		g.Spec.ExtraConfig = map[string]map[string]string{section: {key: value}}
		g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{DisallowedHosts: []string{host}}
		g.Spec.ImportPlugins = &glancev1.ImportPluginsSpec{InjectMetadata: &glancev1.InjectMetadataSpec{Properties: map[string]string{propKey: propValue}}}
		g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "m", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter, Config: map[string]string{"k": mwValue}}}
		data, err := render.ConfigData(g, testEnabled, "minio", nil)
		testenv.FuzzedConfig(t, data, err, render.KeyGlanceAPIConf, section, key, value, host, propKey, propValue, mwValue)
	})
}
