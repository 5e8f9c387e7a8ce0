package webhook

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/catalog"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

// Field errors by type; errsOf sorts them as Summarize does.
func tooLong(path string) at.FieldErr { return at.FieldErr{Type: field.ErrorTypeTooLong, Path: path} }
func notSupp(path string) at.FieldErr {
	return at.FieldErr{Type: field.ErrorTypeNotSupported, Path: path}
}
func tooManyErr(path string) at.FieldErr {
	return at.FieldErr{Type: field.ErrorTypeTooMany, Path: path}
}
func errsOf(fes ...at.FieldErr) []at.FieldErr {
	return at.Sorted(fes)
}

func inject(props map[string]string, roles ...string) *glancev1.ImportPluginsSpec {
	return &glancev1.ImportPluginsSpec{InjectMetadata: &glancev1.InjectMetadataSpec{Properties: props, IgnoreUserRoles: roles}}
}

func quantity(s string) *resource.Quantity { return new(resource.MustParse(s)) }

// glanceRules: one case per rule Glance adds to the shared ones (glance-api.md
// §5), each with the errors Spec must report; an empty want is admitted.
var glanceRules = []struct {
	name string
	mut  func(g *glancev1.Glance)
	want []at.FieldErr
	says string // in the first error's detail
}{
	{"name longer than 43", func(g *glancev1.Glance) { g.Name = strings.Repeat("g", 44) },
		errsOf(at.Invalid("metadata.name")), "must be at most 43 characters"},
	{"name of 43", func(g *glancev1.Glance) { g.Name = strings.Repeat("g", 43) }, nil, ""},
	{"workers below 1", func(g *glancev1.Glance) { g.Spec.APIServer = &glancev1.APIServerSpec{Workers: new(int32(0))} },
		errsOf(at.Invalid("spec.apiServer.workers")), "at least 1"},
	{"spread selector names glance", func(g *glancev1.Glance) {
		g.Spec.Deployment.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{{MaxSkew: 1, TopologyKey: "zone",
			WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{
				"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "glance"}}}}
	}, errsOf(at.Invalid("spec.deployment.topologySpreadConstraints[0].labelSelector")), "app.kubernetes.io/name: glance"},
	{"harakiri from spec.apiServer.uwsgi", func(g *glancev1.Glance) {
		g.Spec.APIServer = &glancev1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{Harakiri: new(int32(25))}}
	}, errsOf(at.Invalid("spec.apiServer.uwsgi.harakiri")), "drain window"},
	{"host empty", func(g *glancev1.Glance) {
		g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{AllowedHosts: []string{""}}
	},
		errsOf(at.Invalid("spec.importFiltering.allowedHosts[0]")), "host must not be empty"},
	{"host CR LF", func(g *glancev1.Glance) {
		g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{DisallowedHosts: []string{"ok", "evil\r\n[DEFAULT]"}}
	}, errsOf(at.Invalid("spec.importFiltering.disallowedHosts[1]")), "CR, LF"},
	{"host comma and edge space", func(g *glancev1.Glance) {
		g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{AllowedHosts: []string{"a,b", " c"}}
	}, errsOf(at.Invalid("spec.importFiltering.allowedHosts[0]"), at.Invalid("spec.importFiltering.allowedHosts[1]")), "','"},
	{"host longer than 253", func(g *glancev1.Glance) {
		g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{AllowedHosts: []string{strings.Repeat("h", 254)}}
	}, errsOf(tooLong("spec.importFiltering.allowedHosts[0]")), ""},
	{"allow and deny lists both set", func(g *glancev1.Glance) {
		g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{AllowedPorts: []int32{443}, DisallowedPorts: []int32{80}}
	}, errsOf(at.Invalid("spec.importFiltering.disallowedPorts")), "exclusive"},
	{"scheme and port out of the schema", func(g *glancev1.Glance) {
		g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{AllowedSchemes: []string{"ftp"}, DisallowedPorts: []int32{0}}
	}, errsOf(notSupp("spec.importFiltering.allowedSchemes[0]"), at.Invalid("spec.importFiltering.disallowedPorts[0]")), ""},
	{"too many hosts", func(g *glancev1.Glance) {
		g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{AllowedHosts: slices.Repeat([]string{"h"}, 65)}
	}, errsOf(tooManyErr("spec.importFiltering.allowedHosts")), ""},
	{"property name with colon", func(g *glancev1.Glance) { g.Spec.ImportPlugins = inject(map[string]string{"a:b": "v"}) },
		errsOf(at.Invalid("spec.importPlugins.injectMetadata.properties[a:b]")), "name must not contain ':'"},
	{"property name with comma, CR LF, edge space", func(g *glancev1.Glance) {
		g.Spec.ImportPlugins = inject(map[string]string{"a,b": "v", "c\n": "v", " d": "v"}) //nolint:gocritic // the edge space is the case
	}, errsOf(at.Invalid("spec.importPlugins.injectMetadata.properties[ d]"),
		at.Invalid("spec.importPlugins.injectMetadata.properties[a,b]"),
		at.Invalid("spec.importPlugins.injectMetadata.properties[c\n]")), ""},
	{"property value with comma, CR LF, edge space", func(g *glancev1.Glance) {
		g.Spec.ImportPlugins = inject(map[string]string{"a": "x,y", "b": "x\r", "c": "x "})
	}, errsOf(at.Invalid("spec.importPlugins.injectMetadata.properties[a]"),
		at.Invalid("spec.importPlugins.injectMetadata.properties[b]"),
		at.Invalid("spec.importPlugins.injectMetadata.properties[c]")), "value must not contain ','"},
	{"property value empty and colon admitted", func(g *glancev1.Glance) {
		g.Spec.ImportPlugins = inject(map[string]string{"a": "", "b": "x:y"})
	}, nil, ""},
	{"property lengths in code points", func(g *glancev1.Glance) {
		g.Spec.ImportPlugins = inject(map[string]string{strings.Repeat("\u00e9", 255): strings.Repeat("\u00e9", 255),
			"long": strings.Repeat("\u00e9", 256)})
	}, errsOf(tooLong("spec.importPlugins.injectMetadata.properties[long]")), ""},
	{"properties empty", func(g *glancev1.Glance) { g.Spec.ImportPlugins = inject(map[string]string{}) },
		errsOf(at.Required("spec.importPlugins.injectMetadata.properties")), ""},
	{"rendered properties quoted", func(g *glancev1.Glance) {
		g.Spec.ImportPlugins = inject(map[string]string{"'a": "1", "z": "2'"})
	}, errsOf(at.Invalid("spec.importPlugins.injectMetadata.properties")), "start and end with '"},
	{"role with comma, CR LF, edge space", func(g *glancev1.Glance) {
		g.Spec.ImportPlugins = inject(map[string]string{"a": "b"}, "admin,member", "x\n", "reader ")
	}, errsOf(at.Invalid("spec.importPlugins.injectMetadata.ignoreUserRoles[0]"),
		at.Invalid("spec.importPlugins.injectMetadata.ignoreUserRoles[1]"),
		at.Invalid("spec.importPlugins.injectMetadata.ignoreUserRoles[2]")), "role must not contain ','"},
	{"role longer than 255 code points", func(g *glancev1.Glance) {
		g.Spec.ImportPlugins = inject(map[string]string{"a": "b"}, strings.Repeat("\u00e9", 256))
	}, errsOf(tooLong("spec.importPlugins.injectMetadata.ignoreUserRoles[0]")), ""},
	{"rendered roles quoted", func(g *glancev1.Glance) { g.Spec.ImportPlugins = inject(map[string]string{"a": "b"}, `"admin"`) },
		errsOf(at.Invalid("spec.importPlugins.injectMetadata.ignoreUserRoles")), `start and end with "`},
	{"output format", func(g *glancev1.Glance) {
		g.Spec.ImportPlugins = &glancev1.ImportPluginsSpec{Conversion: &glancev1.ConversionSpec{OutputFormat: "vhd"}}
	}, errsOf(notSupp("spec.importPlugins.conversion.outputFormat")), ""},
	{"decompression without a staging bound", func(g *glancev1.Glance) {
		g.Spec.ImportPlugins = &glancev1.ImportPluginsSpec{Decompression: &glancev1.DecompressionSpec{}}
		g.Spec.Staging = &glancev1.StagingSpec{}
	}, errsOf(at.Invalid("spec.importPlugins.decompression")), "spec.staging.sizeLimit or spec.staging.unbounded"},
	{"decompression with sizeLimit", func(g *glancev1.Glance) {
		g.Spec.ImportPlugins = &glancev1.ImportPluginsSpec{Decompression: &glancev1.DecompressionSpec{}}
		g.Spec.Staging = &glancev1.StagingSpec{SizeLimit: quantity("50Gi")}
	}, nil, ""},
	{"decompression unbounded", func(g *glancev1.Glance) {
		g.Spec.ImportPlugins = &glancev1.ImportPluginsSpec{Decompression: &glancev1.DecompressionSpec{}}
		g.Spec.Staging = &glancev1.StagingSpec{Unbounded: true}
	}, nil, ""},
	{"retentionDays below 1", func(g *glancev1.Glance) { g.Spec.DBPurge = &glancev1.DBPurgeSpec{RetentionDays: new(int32(0))} },
		errsOf(at.Invalid("spec.dbPurge.retentionDays")), "at least 1"},
	{"schedule not cron", func(g *glancev1.Glance) { g.Spec.DBPurge = &glancev1.DBPurgeSpec{Schedule: "0 0 * * MON-FUN"} },
		errsOf(at.Invalid("spec.dbPurge.schedule")), "must be standard cron"},
	{"schedule descriptor and names", func(g *glancev1.Glance) {
		g.Spec.DBPurge = &glancev1.DBPurgeSpec{Schedule: "30 2 */2 JAN-JUN mon,fri", RetentionDays: new(int32(1))}
	}, nil, ""},
	{"staging below 1Mi", func(g *glancev1.Glance) { g.Spec.Staging = &glancev1.StagingSpec{SizeLimit: quantity("1023Ki")} },
		errsOf(at.Invalid("spec.staging.sizeLimit")), "at least 1Mi"},
	{"staging sizeLimit and unbounded", func(g *glancev1.Glance) {
		g.Spec.Staging = &glancev1.StagingSpec{SizeLimit: quantity("1Gi"), Unbounded: true}
	}, errsOf(at.Invalid("spec.staging.unbounded")), "exclusive"},
	{"imageCache below 1Mi and 1m", func(g *glancev1.Glance) {
		g.Spec.ImageCache = &glancev1.ImageCacheSpec{SizeLimit: quantity("0"), MaintenanceInterval: &metav1.Duration{Duration: 59 * time.Second}}
	}, errsOf(at.Invalid("spec.imageCache.maintenanceInterval"), at.Invalid("spec.imageCache.sizeLimit")), ""},
	{"middleware cache with imageCache", func(g *glancev1.Glance) {
		g.Spec.ImageCache = &glancev1.ImageCacheSpec{}
		g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "cache", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter}}
	}, errsOf(at.Invalid("spec.middleware[0].name")), "image cache's filter"},
	{"middleware cache without imageCache", func(g *glancev1.Glance) {
		g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "cache", FilterFactory: "a:b", Position: serviceapi.MiddlewareAfter}}
	}, nil, ""},
	{"middleware named like an operator section", func(g *glancev1.Glance) {
		g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "ok", FilterFactory: "a:b", Position: serviceapi.MiddlewareBefore},
			{Name: "authtoken", FilterFactory: "a:b", Position: serviceapi.MiddlewareBefore}}
	}, errsOf(at.Invalid("spec.middleware[1].name")), "collides"},
	{"middleware config replacing the factory or with CR LF", func(g *glancev1.Glance) {
		g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "m", FilterFactory: "a:b", Position: serviceapi.MiddlewareBefore,
			Config: map[string]string{"use": "egg:x", "paste.filter_factory": "x:y", "k": "a\nb"}}}
	}, errsOf(at.Forbidden("spec.middleware[0].config[paste.filter_factory]"), at.Forbidden("spec.middleware[0].config[use]"),
		at.Invalid("spec.middleware[0].config[k]")), ""},
	{"plugin with a rejected owned key or CR LF", func(g *glancev1.Glance) {
		g.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: "image_import_opts",
			Config: map[string]string{"image_import_plugins": "[x]", "other": "a\rb"}}}
	}, errsOf(at.Forbidden("spec.plugins[0].config[image_import_plugins]"), at.Invalid("spec.plugins[0].config[other]")),
		"image_import_plugins is managed via spec.importPlugins"},
}

func TestSpecGlanceRules(t *testing.T) {
	for _, tc := range glanceRules {
		t.Run(tc.name, func(t *testing.T) {
			g := valid()
			tc.mut(g)
			errs := Spec(g, nil)
			if got := at.Summarize(errs); !slices.Equal(got, tc.want) {
				t.Fatalf("errors = %v, want %v\n(%v)", got, tc.want, errs)
			}
			if tc.says != "" && !strings.Contains(errs[0].Detail, tc.says) {
				t.Errorf("detail %q does not contain %q", errs[0].Detail, tc.says)
			}
		})
	}
}

// Update-only and create-only rules, and the shared immutability.
func TestSpecOnUpdate(t *testing.T) {
	old := valid()
	old.Name = strings.Repeat("g", 60) // a stored object beyond the create-only bound
	g := old.DeepCopy()
	g.Spec.Region = "RegionTwo"
	if errs := Spec(g, old); len(errs) != 0 {
		t.Errorf("update of a long-named Glance refused: %v", errs)
	}
	g.Spec.TargetClusterRef = &serviceapi.TargetClusterRef{Name: "edge"}
	if got := at.Summarize(Spec(g, old)); !slices.Equal(got, errsOf(at.Invalid("spec.targetClusterRef"))) {
		t.Errorf("targetClusterRef added: %v", got)
	}
}

func glanceValidator(t *testing.T, funcs *interceptor.Funcs) *Validator {
	t.Helper()
	cats, err := catalog.Load()
	if err != nil {
		t.Fatal(err)
	}
	return &Validator{Reader: at.FakeReader(glancev1.AddToScheme, funcs), Catalogs: cats}
}

// A Glance using every optional block correctly: admitted, no warning.
func fullyValid() *glancev1.Glance {
	g := valid()
	g.Spec.OpenStackRelease, g.Spec.Image.Tag = "2026.1", "2026.1"
	g.Spec.APIServer = &glancev1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{Processes: 4, Threads: 2, HTTPKeepAlive: new(true), Harakiri: new(int32(20))}}
	g.Spec.Deployment.PriorityClassName = new(at.PriorityClass)
	g.Spec.ImportFiltering = &glancev1.ImportFilteringSpec{AllowedSchemes: []string{"https"}, AllowedHosts: []string{"images.example.org"},
		AllowedPorts: []int32{443}}
	g.Spec.ImportPlugins = &glancev1.ImportPluginsSpec{Decompression: &glancev1.DecompressionSpec{},
		Conversion: &glancev1.ConversionSpec{OutputFormat: "qcow2"},
		InjectMetadata: &glancev1.InjectMetadataSpec{Properties: map[string]string{"owner": "cloud", "tier": ""},
			IgnoreUserRoles: []string{"admin", "service"}}}
	g.Spec.DBPurge = &glancev1.DBPurgeSpec{RetentionDays: new(int32(90)), Schedule: "@weekly", PurgeImagesTable: new(true)}
	g.Spec.Staging = &glancev1.StagingSpec{SizeLimit: quantity("100Gi")}
	g.Spec.ImageCache = &glancev1.ImageCacheSpec{SizeLimit: quantity("20Gi"), MaintenanceInterval: &metav1.Duration{Duration: time.Hour}}
	g.Spec.Middleware = []serviceapi.MiddlewareSpec{{Name: "audit", FilterFactory: "audit.middleware:filter_factory",
		Position: serviceapi.MiddlewareAfter, Config: map[string]string{"audit_map_file": "/etc/glance/audit.yaml"}}}
	g.Spec.Plugins = []serviceapi.PluginSpec{{Name: "vault", ConfigSection: "vault_plugin", Config: map[string]string{"kv_mountpoint": "glance"}}}
	g.Spec.ExtraConfig = map[string]map[string]string{
		"DEFAULT":                 {"show_image_direct_url": "true", "workers": "8"}, // workers: owned, reported, honoured
		"glance_store":            {"s3_store_enable_data_integrity_protection": "true"},
		"vault_plugin":            {"anything": "1"}, // a plugin's section: not in glance's catalog
		"os_glance_staging_store": {"filesystem_store_file_perm": "0640"},
	}
	return g
}

func TestValidatorValidGlance(t *testing.T) {
	v := glanceValidator(t, nil)
	for name, g := range map[string]*glancev1.Glance{"bare": valid(), "every block": fullyValid()} {
		if w, err := v.Validate(context.Background(), g, nil); err != nil || len(w) != 0 {
			t.Errorf("%s create: warnings %q, err %v", name, w, err)
		}
		if w, err := v.Hook().ValidateUpdate(context.Background(), g.DeepCopy(), g); err != nil || len(w) != 0 {
			t.Errorf("%s update: warnings %q, err %v", name, w, err)
		}
	}
}

// extraConfig against glance's catalogs: what is refused, exempt, and how an
// update re-checks the catalog.
func TestValidatorExtraConfig(t *testing.T) {
	v := glanceValidator(t, nil)
	cases := []struct {
		name    string
		release string
		extra   map[string]map[string]string
		plugins []string
		want    []at.FieldErr
	}{
		{"rejected owned keys", "2025.2", map[string]map[string]string{
			"import_filtering_opts": {"allowed_hosts": "[]"}, "DEFAULT": {"image_cache_max_size": "1"},
			"image_conversion": {"output_format": "raw"}, "keystone_authtoken": {"password": at.Secret}},
			nil, errsOf(at.Forbidden("spec.extraConfig[DEFAULT][image_cache_max_size]"),
				at.Forbidden("spec.extraConfig[image_conversion][output_format]"),
				at.Forbidden("spec.extraConfig[import_filtering_opts][allowed_hosts]"),
				at.Forbidden("spec.extraConfig[keystone_authtoken][password]"))},
		{"unknown option and section", "2025.2", map[string]map[string]string{"DEFAULT": {"no_such": "1"}, "nova": {"x": "1"}},
			nil, errsOf(at.Invalid("spec.extraConfig[DEFAULT][no_such]"), at.Invalid("spec.extraConfig[nova]"))},
		{"option new in 2026.1 refused in 2025.2", "2025.2", map[string]map[string]string{"database": {"synchronous_reader": "true"}},
			nil, errsOf(at.Invalid("spec.extraConfig[database][synchronous_reader]"))},
		{"option new in 2026.1", "2026.1", map[string]map[string]string{"database": {"synchronous_reader": "true"}}, nil, nil},
		{"plugin and store sections exempt", "2025.2", map[string]map[string]string{"my_plugin": {"x": "1"},
			"os_glance_tasks_store": {"y": "1"}, "os_glance_staging_store": {"filesystem_store_datadir": "/x"}}, []string{"my_plugin"}, nil},
		{"exempt sections still refuse CR LF", "2025.2", map[string]map[string]string{"my_plugin": {"x": "1\n[DEFAULT]"}},
			[]string{"my_plugin"}, errsOf(at.Invalid("spec.extraConfig[my_plugin][x]"))},
		{"empty section", "2025.2", map[string]map[string]string{"": {"x": "1"}}, nil, errsOf(at.Invalid("spec.extraConfig[]"))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := valid()
			g.Spec.OpenStackRelease, g.Spec.ExtraConfig = tc.release, tc.extra
			for _, p := range tc.plugins {
				g.Spec.Plugins = append(g.Spec.Plugins, serviceapi.PluginSpec{ConfigSection: p})
			}
			_, err := v.Validate(context.Background(), g, nil)
			if got := at.Causes(t, err, GlanceKind); !slices.Equal(got, tc.want) {
				t.Fatalf("causes = %v, want %v (%v)", got, tc.want, err)
			}
			if err != nil && strings.Contains(err.Error(), at.Secret) {
				t.Errorf("error echoes a secret: %v", err)
			}
		})
	}
	// Update: an unknown option in a plugin's section is re-checked once the
	// plugin is removed, and not on an unrelated change.
	old := valid()
	old.Spec.Plugins = []serviceapi.PluginSpec{{ConfigSection: "my_plugin"}}
	old.Spec.ExtraConfig = map[string]map[string]string{"my_plugin": {"x": "1"}}
	g := old.DeepCopy()
	g.Spec.Region = "RegionTwo"
	if _, err := v.Validate(context.Background(), g, old); err != nil {
		t.Errorf("unrelated update refused: %v", err)
	}
	g.Spec.Plugins = nil
	if _, err := v.Validate(context.Background(), g, old); !slices.Equal(at.Causes(t, err, GlanceKind), errsOf(at.Invalid("spec.extraConfig[my_plugin]"))) {
		t.Errorf("plugin removed: %v", err)
	}
	// A rejected owned key is refused on every update, changed or not.
	old.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"image_cache_dir": "/tmp"}}
	g = old.DeepCopy()
	g.Spec.Region = "RegionThree"
	if _, err := v.Validate(context.Background(), g, old); !slices.Equal(at.Causes(t, err, GlanceKind),
		errsOf(at.Forbidden("spec.extraConfig[DEFAULT][image_cache_dir]"))) {
		t.Errorf("kept rejected key: %v", err)
	}
}

func TestValidatorLookupsAndAggregation(t *testing.T) {
	v := glanceValidator(t, nil)
	g := valid()
	g.Name = strings.Repeat("g", 44)
	g.Spec.Deployment.PriorityClassName = new("missing")
	g.Spec.Staging = &glancev1.StagingSpec{SizeLimit: quantity("1Ki")}
	g.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"logfile": "/x", "bogus": "1"}}
	w, err := v.Validate(context.Background(), g, nil)
	want := errsOf(at.Invalid("metadata.name"), at.NotFound("spec.deployment.priorityClassName"),
		at.Invalid("spec.extraConfig[DEFAULT][bogus]"), at.Invalid("spec.staging.sizeLimit"))
	if got := at.Causes(t, err, GlanceKind); !slices.Equal(got, want) {
		t.Errorf("causes = %v, want %v", got, want)
	}
	if len(w) != 1 || !strings.Contains(w[0], "[DEFAULT] logfile is deprecated") {
		t.Errorf("warnings = %q", w)
	}
	broken := glanceValidator(t, &interceptor.Funcs{Get: func(context.Context, client.WithWatch, client.ObjectKey, client.Object, ...client.GetOption) error {
		return errors.New("etcd unavailable")
	}})
	if _, err := broken.Validate(context.Background(), fullyValid(), nil); !apierrors.IsInternalError(err) {
		t.Errorf("failed PriorityClass lookup: %v, want InternalError", err)
	}
	// Terminating: only finalizers change, nothing is checked.
	now := metav1.Now()
	g.DeletionTimestamp = &now
	if w, err := v.Hook().ValidateUpdate(context.Background(), g.DeepCopy(), g); err != nil || w != nil {
		t.Errorf("terminating update: %q %v", w, err)
	}
}
