package webhook

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/catalog"
	"github.com/c5c3/openstack-operators/glance-operator/internal/fixture"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

// One kube-apiserver + etcd for the package with both CRDs and all four
// webhook configurations installed, served by Register as the operator does.
var suite *at.Suite

var glanceKind = at.Kind[*glancev1.Glance]{
	Service: glancev1.ServiceName,
	GVK:     glancev1.GroupVersion.WithKind("Glance"),
	New:     func(name string) *glancev1.Glance { return fixture.Bare(at.Namespace, name) },
	Target: func(g *glancev1.Glance) at.Target {
		return at.Target{Spec: &g.Spec.ServiceSpec, UWSGI: writtenUWSGI(g)}
	},
}

// writtenUWSGI returns spec.apiServer.uwsgi, writing empty blocks first.
func writtenUWSGI(g *glancev1.Glance) func() *serviceapi.UWSGISpec {
	return func() *serviceapi.UWSGISpec {
		g.Spec.APIServer = cmp.Or(g.Spec.APIServer, &glancev1.APIServerSpec{})
		g.Spec.APIServer.UWSGI = cmp.Or(g.Spec.APIServer.UWSGI, &serviceapi.UWSGISpec{})
		return g.Spec.APIServer.UWSGI
	}
}

var backendKind = at.Kind[*glancev1.GlanceBackend]{
	Service: glancev1.ServiceName,
	GVK:     glancev1.GroupVersion.WithKind("GlanceBackend"),
	New: func(name string) *glancev1.GlanceBackend {
		return fixture.S3Backend(at.Namespace, name, "glance", "s3-creds", false)
	},
}

// glanceCatalog is what the 2025.2 catalog the fixture selects holds.
var glanceCatalog = at.Catalog{Release: "2025.2", Section: "DEFAULT", Option: "image_size_cap"}

func TestMain(m *testing.M) {
	os.Exit(at.Main(m, at.Options{
		AddToScheme: glancev1.AddToScheme,
		Register: func(mgr ctrl.Manager) error {
			cats, err := catalog.Load()
			if err != nil {
				return err
			}
			return Register(mgr, cats)
		},
	}, func(s *at.Suite) { suite = s }))
}

func TestAdmitsAndDefaultsGlance(t *testing.T) {
	got := glanceKind.AdmitsAndDefaults(t, suite, Defaults.Resources)
	s := got.Spec
	if s.APIServer != nil || s.ImportFiltering != nil || s.ImportPlugins != nil || s.DBPurge != nil || s.Staging != nil || s.ImageCache != nil {
		t.Errorf("render-time blocks written: %+v", s)
	}
}

// The cases the shared service spec brings to every service kind.
func TestSharedAdmission(t *testing.T) {
	glanceKind.SharedAdmission(t, suite, glanceCatalog, glancev1.Finalizer)
}

// Every rule of glance-api.md §5 on a real API server: the shared ones, then
// Glance's own, each refused by the layer that owns it ("S" schema and CEL,
// "V" the validating webhook).
func TestRefusesEveryGlanceRule(t *testing.T) {
	glanceKind.Refuses(t, suite, "shared", glanceKind.ServiceRefusals(glanceCatalog))
	glanceKind.Refuses(t, suite, "refused", glanceRefusals())
}

func glanceRefusals() []at.Refusal[*glancev1.Glance] {
	r := func(name, layer string, mut func(g *glancev1.Glance), want ...string) at.Refusal[*glancev1.Glance] {
		return at.Refusal[*glancev1.Glance]{Name: name, Mut: mut, Layer: layer, Want: want}
	}
	plugins := func(ip *glancev1.ImportPluginsSpec) func(g *glancev1.Glance) {
		return func(g *glancev1.Glance) { g.Spec.ImportPlugins = ip }
	}
	cases := []at.Refusal[*glancev1.Glance]{
		r("workers below 1", "S", func(g *glancev1.Glance) { g.Spec.APIServer = &glancev1.APIServerSpec{Workers: new(int32(0))} },
			"spec.apiServer.workers"),
		r("schemes exclusive", "S", filtering(glancev1.ImportFilteringSpec{AllowedSchemes: []string{"https"}, DisallowedSchemes: []string{"http"}}),
			"allowedSchemes and disallowedSchemes are exclusive"),
		r("hosts exclusive", "S", filtering(glancev1.ImportFilteringSpec{AllowedHosts: []string{"a"}, DisallowedHosts: []string{"b"}}),
			"allowedHosts and disallowedHosts are exclusive"),
		r("ports exclusive", "S", filtering(glancev1.ImportFilteringSpec{AllowedPorts: []int32{443}, DisallowedPorts: []int32{80}}),
			"allowedPorts and disallowedPorts are exclusive"),
		r("scheme enum", "S", filtering(glancev1.ImportFilteringSpec{AllowedSchemes: []string{"ftp"}}), "spec.importFiltering.allowedSchemes[0]"),
		r("port range", "S", filtering(glancev1.ImportFilteringSpec{AllowedPorts: []int32{65536}}), "spec.importFiltering.allowedPorts[0]"),
		r("host empty", "S", filtering(glancev1.ImportFilteringSpec{AllowedHosts: []string{""}}), "spec.importFiltering.allowedHosts[0]"),
		r("host CR LF", "V", filtering(glancev1.ImportFilteringSpec{DisallowedHosts: []string{"evil\r\n[DEFAULT]"}}),
			"spec.importFiltering.disallowedHosts[0]", "must not contain CR, LF"),
		r("host comma", "V", filtering(glancev1.ImportFilteringSpec{DisallowedHosts: []string{"a,b"}}),
			"spec.importFiltering.disallowedHosts[0]", "must not contain ','"),
		r("host edge space", "V", filtering(glancev1.ImportFilteringSpec{AllowedHosts: []string{"a "}}),
			"spec.importFiltering.allowedHosts[0]", "leading or trailing whitespace"),
		r("property name colon", "V", plugins(inject(map[string]string{"a:b": "v"})),
			"spec.importPlugins.injectMetadata.properties[a:b]", "name must not contain ':'"),
		r("property name comma", "V", plugins(inject(map[string]string{"a,b": "v"})), "name must not contain ','"),
		r("property name CR LF", "V", plugins(inject(map[string]string{"a\nb": "v"})), "name must not contain CR, LF"),
		r("property name edge space", "V", plugins(inject(map[string]string{" a": "v"})), "name must not have leading or trailing"),
		r("property value comma", "V", plugins(inject(map[string]string{"a": "x,y"})), "value must not contain ','"),
		r("property value CR LF", "V", plugins(inject(map[string]string{"a": "x\r"})), "value must not contain CR, LF"),
		r("property value edge space", "V", plugins(inject(map[string]string{"a": "x "})), "value must not have leading or trailing"),
		r("property longer than 255 code points", "S", plugins(inject(map[string]string{"a": strings.Repeat("\u00e9", 256)})),
			"importPlugins.injectMetadata.properties names and values must be at most 255 characters"),
		r("properties empty", "S", plugins(inject(map[string]string{})), "spec.importPlugins.injectMetadata.properties: Required value"),
		r("role comma", "V", plugins(inject(map[string]string{"a": "b"}, "admin,member")),
			"spec.importPlugins.injectMetadata.ignoreUserRoles[0]", "role must not contain ','"),
		r("role CR LF", "V", plugins(inject(map[string]string{"a": "b"}, "admin\n")), "role must not contain CR, LF"),
		r("role longer than 255 code points", "S", plugins(inject(map[string]string{"a": "b"}, strings.Repeat("\u00e9", 256))),
			"spec.importPlugins.injectMetadata.ignoreUserRoles[0]"),
		r("output format enum", "S", plugins(&glancev1.ImportPluginsSpec{Conversion: &glancev1.ConversionSpec{OutputFormat: "vhd"}}),
			"spec.importPlugins.conversion.outputFormat"),
		r("decompression without a staging bound", "V", plugins(&glancev1.ImportPluginsSpec{Decompression: &glancev1.DecompressionSpec{}}),
			"spec.importPlugins.decompression", "spec.staging.sizeLimit or spec.staging.unbounded"),
		r("retentionDays below 1", "S", func(g *glancev1.Glance) { g.Spec.DBPurge = &glancev1.DBPurgeSpec{RetentionDays: new(int32(0))} },
			"spec.dbPurge.retentionDays"),
		r("schedule with six fields", "V", func(g *glancev1.Glance) { g.Spec.DBPurge = &glancev1.DBPurgeSpec{Schedule: "0 0 1 * * *"} },
			"spec.dbPurge.schedule", "must be standard cron", "has 6 fields"),
		r("schedule out of range", "V", func(g *glancev1.Glance) { g.Spec.DBPurge = &glancev1.DBPurgeSpec{Schedule: "0 0 * * 7"} },
			`day of week "7" must be 0-6 or SUN-SAT`),
		r("staging below 1Mi", "V", func(g *glancev1.Glance) { g.Spec.Staging = &glancev1.StagingSpec{SizeLimit: quantity("1000Ki")} },
			"spec.staging.sizeLimit", "at least 1Mi"),
		r("staging sizeLimit and unbounded", "S", func(g *glancev1.Glance) {
			g.Spec.Staging = &glancev1.StagingSpec{SizeLimit: quantity("1Gi"), Unbounded: true}
		}, "staging: sizeLimit and unbounded are exclusive"),
		r("imageCache below 1Mi", "V", func(g *glancev1.Glance) { g.Spec.ImageCache = &glancev1.ImageCacheSpec{SizeLimit: quantity("512Ki")} },
			"spec.imageCache.sizeLimit", "at least 1Mi"),
		r("imageCache interval below 1m", "V", func(g *glancev1.Glance) {
			g.Spec.ImageCache = &glancev1.ImageCacheSpec{MaintenanceInterval: &metav1.Duration{Duration: 30 * time.Second}}
		}, "spec.imageCache.maintenanceInterval", "at least 1m"),
		r("middleware cache with imageCache", "V", func(g *glancev1.Glance) {
			g.Spec.ImageCache = &glancev1.ImageCacheSpec{}
			g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "cache", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter}}
		}, "spec.middleware[0].name", "image cache's filter"),
		r("middleware reserved name", "V", func(g *glancev1.Glance) {
			g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "rootapp", FilterFactory: "a:b", Position: serviceapi.MiddlewareBefore}}
		}, "spec.middleware[0].name", "collides"),
		r("middleware config replaces the factory", "V", func(g *glancev1.Glance) {
			g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "m", FilterFactory: "a:b", Position: serviceapi.MiddlewareBefore,
				Config: map[string]string{"use": "egg:x"}}}
		}, "spec.middleware[0].config[use]", "would replace the filter factory"),
		r("plugin sets a rejected owned key", "V", func(g *glancev1.Glance) {
			g.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: "import_filtering_opts", Config: map[string]string{"allowed_ports": "[]"}}}
		}, "spec.plugins[0].config[allowed_ports]", "managed via spec.importFiltering"),
		r("extraConfig rejected glance key", "V", func(g *glancev1.Glance) {
			g.Spec.ExtraConfig = map[string]map[string]string{"image_import_opts": {"image_import_plugins": "[x]"}}
		}, "spec.extraConfig[image_import_opts][image_import_plugins]", "Forbidden", "managed via spec.importPlugins"),
		r("extraConfig option of the other release", "V", func(g *glancev1.Glance) {
			g.Spec.ExtraConfig = map[string]map[string]string{"database": {"synchronous_reader": "true"}}
		}, "spec.extraConfig[database][synchronous_reader]", "no such option in the glance 2025.2 option catalog"),
	}
	long := r("name longer than 43", "V", func(*glancev1.Glance) {}, "metadata.name", "must be at most 43 characters")
	long.Object = strings.Repeat("g", 44)
	return append(cases, long)
}

// admitted creates g, wants it admitted and returns the request's warnings.
func admitted(t *testing.T, g *glancev1.Glance) []string { t.Helper(); return suite.Admit(t, g) }

// What the rules admit, on the edge of each.
func TestAdmitsGlanceEdges(t *testing.T) {
	cases := []at.Edge[*glancev1.Glance]{
		{Name: "name of 43", Mut: func(g *glancev1.Glance) { g.Name = strings.Repeat("g", 43) }},
		{Name: "lengths in code points", Mut: func(g *glancev1.Glance) {
			g.Spec.ImportPlugins = inject(map[string]string{strings.Repeat("\u00e9", 255): strings.Repeat("\u00e9", 255)},
				strings.Repeat("\u00e9", 255))
		}},
		{Name: "decompression unbounded", Mut: func(g *glancev1.Glance) {
			g.Spec.ImportPlugins = &glancev1.ImportPluginsSpec{Decompression: &glancev1.DecompressionSpec{}}
			g.Spec.Staging = &glancev1.StagingSpec{Unbounded: true}
		}},
		{Name: "exempt sections and the cache middleware without imageCache", Mut: func(g *glancev1.Glance) {
			g.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: "my_plugin", Config: map[string]string{"k": "v"}}}
			g.Spec.ExtraConfig = map[string]map[string]string{"my_plugin": {"x": "1"}, "os_glance_tasks_store": {"y": "2"}}
			g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "cache", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter}}
		}},
		{Name: "every block", Mut: func(g *glancev1.Glance) {
			f := fullyValid()
			f.Name, f.Namespace = g.Name, g.Namespace
			*g = *f
		}},
	}
	glanceKind.AdmitsEdges(t, suite, cases)
}

// Every Glance warning of glance-api.md §5 arrives as an API warning on an
// admitted object (the catalog ones in the shared tests above).
func TestGlanceWarnings(t *testing.T) {
	ctx := context.Background()
	cases := []struct {
		name string
		mut  func(g *glancev1.Glance)
		want string
	}{
		{"uwsgi below 2026.1", func(g *glancev1.Glance) { g.Spec.APIServer = &glancev1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{}} },
			"spec.apiServer.uwsgi has no effect below 2026.1"},
		{"workers from 2026.1", func(g *glancev1.Glance) {
			g.Spec.OpenStackRelease, g.Spec.Image.Tag = "2026.1", "2026.1"
			g.Spec.APIServer = &glancev1.APIServerSpec{Workers: new(int32(4))}
		}, "spec.apiServer.workers has no effect from 2026.1"},
		{"disallowedSchemes inert", filtering(glancev1.ImportFilteringSpec{DisallowedSchemes: []string{"http"}}),
			"disallowedSchemes has no effect while allowedSchemes is unset"},
		{"disallowedPorts inert", filtering(glancev1.ImportFilteringSpec{DisallowedPorts: []int32{22}}),
			"disallowedPorts has no effect while allowedPorts is unset"},
		{"allowedSchemes []", filtering(glancev1.ImportFilteringSpec{AllowedSchemes: []string{}}),
			"allowedSchemes is [], which allows every scheme"},
		{"allowedPorts beyond the default", filtering(glancev1.ImportFilteringSpec{AllowedPorts: []int32{443, 80}}),
			"allowedPorts widens the default [443] by 80"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := glanceKind.New(fmt.Sprintf("warned-%02d", i))
			tc.mut(g)
			if w := admitted(t, g); len(w) != 1 || !strings.Contains(w[0], tc.want) {
				t.Errorf("warnings = %q, want one containing %q", w, tc.want)
			}
		})
	}
	t.Run("retention lowered on update", func(t *testing.T) {
		g := glanceKind.New("warned-retention")
		g.Spec.DBPurge = &glancev1.DBPurgeSpec{RetentionDays: new(int32(90))}
		if err := suite.Client.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		suite.Warnings.Take()
		g.Spec.DBPurge.RetentionDays = new(int32(7))
		if err := suite.Client.Update(ctx, g); err != nil {
			t.Fatal(err)
		}
		if w := suite.Warnings.Take(); len(w) != 1 || !strings.Contains(w[0], "retentionDays lowered from 90 to 7 days") {
			t.Errorf("warnings = %q", w)
		}
	})
}

// The shared update rules, and a plugin removed from under extraConfig.
func TestGlanceUpdateRules(t *testing.T) {
	withPlugin := func(g *glancev1.Glance) {
		g.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: "my_plugin"}}
		g.Spec.ExtraConfig = map[string]map[string]string{"my_plugin": {"x": "1"}}
	}
	glanceKind.Updates(t, suite, "update", append(glanceKind.ServiceUpdates(glanceCatalog),
		at.Update[*glancev1.Glance]{Name: "plugin kept, unrelated change", Create: withPlugin,
			Update: func(g *glancev1.Glance) { g.Spec.Region = "RegionTwo" }},
		at.Update[*glancev1.Glance]{Name: "plugin removed: its extraConfig section is checked", Create: withPlugin,
			Update: func(g *glancev1.Glance) { g.Spec.Plugins = nil },
			Layer:  "V", Want: []string{"spec.extraConfig[my_plugin]", "no such section in the glance 2025.2 option catalog"}},
	))
}

// Manifests without a required field are refused as that field missing.
func TestRefusesMissingRequiredGlanceField(t *testing.T) {
	withPlugins := func(g *glancev1.Glance) {
		g.Spec.ImportPlugins = inject(map[string]string{"a": "b"})
		g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "m", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter}}
		g.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: "my_plugin"}}
	}
	cases := glanceKind.ServiceMissing()
	for _, drop := range [][]string{
		{"spec", "importPlugins", "injectMetadata", "properties"},
		{"spec", "middleware", "0", "name"}, {"spec", "middleware", "0", "filterFactory"}, {"spec", "middleware", "0", "position"},
		{"spec", "plugins", "0", "configSection"},
	} {
		cases = append(cases, at.Missing[*glancev1.Glance]{Drop: drop, With: withPlugins})
	}
	glanceKind.RefusesMissing(t, suite, "missing", cases)
}
