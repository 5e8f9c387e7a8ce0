package render

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/c5c3/openstack-operators/common/lib/ini"
	"github.com/c5c3/openstack-operators/common/lib/workload"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// KeyBackendsConf is the data key of the backends Secret.
const KeyBackendsConf = "backends.conf"

// storeType is the glance_store driver of every backend (enabled_backends <name>:s3).
const storeType = "s3"

// Backend is one credential-ready GlanceBackend with its credentials.
type Backend struct {
	Name                         string // GlanceBackend metadata.name = store id
	Default                      bool
	S3                           glancev1.S3Spec
	AccessKeyID, SecretAccessKey string // from the credentials Secret
	ExtraOptions                 map[string]string
}

// Typed keys of a store section; extraOptions never override them.
const (
	keyS3Host              = "s3_store_host"
	keyS3Bucket            = "s3_store_bucket"
	keyS3AccessKey         = "s3_store_access_key"
	keyS3SecretKey         = "s3_store_secret_key"
	keyS3BucketURLFormat   = "s3_store_bucket_url_format"
	keyS3Region            = "s3_store_region_name"
	keyS3CreateBucketOnPut = "s3_store_create_bucket_on_put"
	keyS3LargeObjectSize   = "s3_store_large_object_size"
	keyS3LargeObjectChunk  = "s3_store_large_object_chunk_size"
)

var typedKeys = []string{
	keyS3Host, keyS3Bucket, keyS3AccessKey, keyS3SecretKey, keyS3BucketURLFormat,
	keyS3Region, keyS3CreateBucketOnPut, keyS3LargeObjectSize, keyS3LargeObjectChunk,
}

// reservedBackendNames would collide with sections of glance-api.conf,
// which shares one oslo.config namespace with the backends file.
var reservedBackendNames = []string{
	"default", "database", "keystone_authtoken", "glance_store", "paste_deploy",
	"oslo_policy", "os_glance_staging_store", "os_glance_tasks_store",
}

// ReservedBackendName reports whether name (case-insensitive) is a section
// glance-api.conf or glance itself owns, so it cannot be a store id.
func ReservedBackendName(name string) bool {
	n := strings.ToLower(name)
	return slices.Contains(reservedBackendNames, n) ||
		strings.HasPrefix(n, "os_glance_") || strings.HasPrefix(n, "os-glance-")
}

// BackendsConf renders one [<name>] section per backend, sorted by name. A
// backend that cannot be rendered safely (a control character or another
// value oslo.config would read back differently, or a reserved name) is left
// out and returned in skipped: name -> reason, never the value. err is only
// for input no backend subset can fix (a name given twice).
func BackendsConf(backends []Backend) (conf string, skipped map[string]string, err error) {
	sorted := slices.Clone(backends)
	slices.SortFunc(sorted, func(a, b Backend) int { return strings.Compare(a.Name, b.Name) })
	var out strings.Builder
	for i, b := range sorted {
		if i > 0 && sorted[i-1].Name == b.Name {
			return "", nil, fmt.Errorf("backend %q given twice", b.Name)
		}
		section, reason := backendSection(b)
		if reason != "" {
			if skipped == nil {
				skipped = map[string]string{}
			}
			skipped[b.Name] = reason
			continue
		}
		if out.Len() > 0 {
			out.WriteByte('\n')
		}
		out.Write(section)
	}
	return out.String(), skipped, nil
}

// backendSection renders one store section, or says why it cannot.
func backendSection(b Backend) ([]byte, string) {
	if ReservedBackendName(b.Name) {
		return nil, fmt.Sprintf("the name %q is reserved for a section glance owns", b.Name)
	}
	out, err := ini.Render(ini.File{b.Name: StoreOptions(b)})
	if err != nil {
		return nil, err.Error()
	}
	return out, ""
}

// StoreOptions are the keys of a backend's [<name>] section: the typed S3
// keys, then extraOptions that do not name a typed key.
func StoreOptions(b Backend) map[string]string {
	s3 := b.S3
	format := s3.BucketURLFormat
	if format == "" {
		format = glancev1.BucketURLPath
	}
	opts := map[string]string{
		keyS3Host:            s3.Host,
		keyS3Bucket:          s3.Bucket,
		keyS3AccessKey:       b.AccessKeyID,
		keyS3SecretKey:       b.SecretAccessKey,
		keyS3BucketURLFormat: format,
	}
	if s3.Region != "" {
		opts[keyS3Region] = s3.Region
	}
	if s3.CreateBucketOnPut {
		opts[keyS3CreateBucketOnPut] = "true"
	}
	if s3.LargeObjectSize != nil {
		opts[keyS3LargeObjectSize] = strconv.FormatInt(CeilMiB(*s3.LargeObjectSize), 10)
	}
	if s3.LargeObjectChunkSize != nil {
		opts[keyS3LargeObjectChunk] = strconv.FormatInt(CeilMiB(*s3.LargeObjectChunkSize), 10)
	}
	for _, k := range slices.Sorted(maps.Keys(b.ExtraOptions)) {
		if !slices.Contains(typedKeys, k) {
			opts[k] = b.ExtraOptions[k]
		}
	}
	return opts
}

// CeilMiB is q in whole MiB, rounded up: glance_store reads the large object
// sizes as MiB counts, and rounding down could render 0 or split smaller.
func CeilMiB(q resource.Quantity) int64 {
	const mi = 1 << 20
	v := q.Value()
	if v <= 0 {
		return 0
	}
	return (v-1)/mi + 1
}

// EnabledBackends is [DEFAULT] enabled_backends: <name>:s3 joined by commas.
func EnabledBackends(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = n + ":" + storeType
	}
	return strings.Join(parts, ",")
}

// S3EgressPorts are the distinct TCP ports of the backends' s3.host URLs
// (workload.URLPorts: explicit port, else 80 for http and 443 for https),
// sorted. A host that does not parse as an http(s) URL contributes nothing.
func S3EgressPorts(hosts []string) []int32 { return workload.URLPorts(hosts) }
