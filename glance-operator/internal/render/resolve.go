package render

import (
	"math"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/c5c3/openstack-operators/common/lib/release"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// DefaultWorkers of the eventlet server ([DEFAULT] workers below 2026.1).
const DefaultWorkers int32 = 2

// uwsgiRelease is the first release launched under uWSGI.
var uwsgiRelease = release.Release{Year: 2026, Minor: 1}

// UWSGIMode reports whether release launches under uWSGI (2026.1 and later);
// an unparseable release falls back to the eventlet server.
func UWSGIMode(rel string) bool {
	r, err := release.Parse(rel)
	return err == nil && r.Compare(uwsgiRelease) >= 0
}

// Workers is [DEFAULT] workers and whether it is rendered: always below
// 2026.1 (2 when unset), from 2026.1 only when set (inert under uWSGI).
func Workers(g *glancev1.Glance) (int32, bool) {
	var set *int32
	if g.Spec.APIServer != nil && g.Spec.APIServer.Workers != nil && *g.Spec.APIServer.Workers > 0 {
		set = g.Spec.APIServer.Workers
	}
	switch {
	case set != nil:
		return *set, true
	case UWSGIMode(g.Spec.OpenStackRelease):
		return 0, false
	default:
		return DefaultWorkers, true
	}
}

// EffectiveStagingLimit is the sizeLimit of the staging and tasks-work
// volumes: 10Gi unless set, nil when unbounded. A sizeLimit wins over
// unbounded (exclusive by CEL), since a bound is the safer reading.
func EffectiveStagingLimit(g *glancev1.Glance) *resource.Quantity {
	s := g.Spec.Staging
	if s != nil && s.SizeLimit != nil && s.SizeLimit.Sign() > 0 {
		return new(s.SizeLimit.DeepCopy())
	}
	if s != nil && s.Unbounded {
		return nil
	}
	return new(glancev1.DefaultStagingSize.DeepCopy())
}

// EffectiveImageCache is the image cache's volume bound and maintenance
// interval, defaulted to 10Gi and 5m. It does not say whether the cache is
// on: that is spec.imageCache != nil.
func EffectiveImageCache(g *glancev1.Glance) (resource.Quantity, time.Duration) {
	size := glancev1.DefaultImageCacheSize.DeepCopy()
	interval := glancev1.DefaultMaintenanceInterval.Duration
	if c := g.Spec.ImageCache; c != nil {
		if c.SizeLimit != nil && c.SizeLimit.Sign() > 0 {
			size = c.SizeLimit.DeepCopy()
		}
		if c.MaintenanceInterval != nil && c.MaintenanceInterval.Duration > 0 {
			interval = c.MaintenanceInterval.Duration
		}
	}
	return size, interval
}

// ImageCacheMaxSize is image_cache_max_size in bytes: 80% of the cache
// volume bound (bytes/10*8), so the pruner acts before the kubelet evicts.
func ImageCacheMaxSize(g *glancev1.Glance) int64 {
	size, _ := EffectiveImageCache(g)
	return size.Value() / 10 * 8
}

// intervalSeconds rounds a maintenance interval up to whole seconds.
func intervalSeconds(d time.Duration) int64 {
	return int64(math.Ceil(d.Seconds()))
}

// DisallowedHostsBaseline is always denied to web-download unless an
// allow-list of hosts is set: loopback, link-local metadata and the
// in-cluster API server names.
var DisallowedHostsBaseline = []string{
	"localhost", "127.0.0.1", "0.0.0.0", "::1", "169.254.169.254",
	"kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local",
}

// ImportFiltering is [import_filtering_opts] resolved; a nil list renders [].
type ImportFiltering struct {
	AllowedSchemes, DisallowedSchemes []string
	AllowedHosts, DisallowedHosts     []string
	AllowedPorts, DisallowedPorts     []int32
}

// EffectiveImportFiltering resolves spec.importFiltering: only a nil list is
// unset. Nil allowedSchemes/allowedPorts become [https]/[443]; disallowedHosts
// is the baseline plus the user's entries, or empty while allowedHosts is
// non-empty. No other field changes another's default.
func EffectiveImportFiltering(g *glancev1.Glance) ImportFiltering {
	var in glancev1.ImportFilteringSpec
	if g.Spec.ImportFiltering != nil {
		in = *g.Spec.ImportFiltering
	}
	out := ImportFiltering{
		AllowedSchemes:    slices.Clone(in.AllowedSchemes),
		DisallowedSchemes: slices.Clone(in.DisallowedSchemes),
		AllowedHosts:      slices.Clone(in.AllowedHosts),
		AllowedPorts:      slices.Clone(in.AllowedPorts),
		DisallowedPorts:   slices.Clone(in.DisallowedPorts),
	}
	if in.AllowedSchemes == nil {
		out.AllowedSchemes = []string{glancev1.SchemeHTTPS}
	}
	if in.AllowedPorts == nil {
		out.AllowedPorts = []int32{443}
	}
	if len(in.AllowedHosts) == 0 {
		out.DisallowedHosts = dedup(slices.Concat(DisallowedHostsBaseline, in.DisallowedHosts))
	}
	return out
}

// dedup keeps the first occurrence of each entry, in order.
func dedup(in []string) []string {
	seen := make(map[string]bool, len(in))
	out := make([]string, 0, len(in))
	for _, s := range in {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// Import plugin names, in the only order glance runs them.
const (
	PluginDecompression  = "image_decompression"
	PluginConversion     = "image_conversion"
	PluginInjectMetadata = "inject_image_metadata"
)

// EffectiveImportPlugins lists the enabled plugins in their fixed order.
func EffectiveImportPlugins(g *glancev1.Glance) []string {
	p := g.Spec.ImportPlugins
	out := []string{}
	if p == nil {
		return out
	}
	if p.Decompression != nil {
		out = append(out, PluginDecompression)
	}
	if p.Conversion != nil {
		out = append(out, PluginConversion)
	}
	if p.InjectMetadata != nil {
		out = append(out, PluginInjectMetadata)
	}
	return out
}

// EffectiveOutputFormat is image_conversion's output_format, raw when unset.
func EffectiveOutputFormat(c *glancev1.ConversionSpec) string {
	if c == nil || c.OutputFormat == "" {
		return glancev1.FormatRaw
	}
	return c.OutputFormat
}

// EffectiveIgnoreUserRoles is inject_metadata_properties' exemption list:
// [admin] when nil, none when [].
func EffectiveIgnoreUserRoles(m *glancev1.InjectMetadataSpec) []string {
	if m == nil || m.IgnoreUserRoles == nil {
		return []string{"admin"}
	}
	return slices.Clone(m.IgnoreUserRoles)
}

// DBPurge is spec.dbPurge resolved.
type DBPurge struct {
	Schedule         string
	RetentionDays    int32
	PurgeImagesTable bool
	Suspend          bool
}

// EffectiveDBPurge resolves spec.dbPurge at reconcile time, so defaults
// follow the operator. A retention below one day (admission refuses it)
// renders the default rather than purging everything soft-deleted.
func EffectiveDBPurge(g *glancev1.Glance) DBPurge {
	out := DBPurge{Schedule: glancev1.DefaultDBPurgeSchedule, RetentionDays: glancev1.DefaultDBPurgeRetentionDays}
	p := g.Spec.DBPurge
	if p == nil {
		return out
	}
	if p.Schedule != "" {
		out.Schedule = p.Schedule
	}
	if p.RetentionDays != nil && *p.RetentionDays >= 1 {
		out.RetentionDays = *p.RetentionDays
	}
	out.PurgeImagesTable = p.PurgeImagesTable != nil && *p.PurgeImagesTable
	out.Suspend = p.Suspend
	return out
}
