package v1alpha1

import (
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// GlanceSpec is the desired state of an OpenStack Glance image API.
type GlanceSpec struct {
	serviceapi.ServiceSpec `json:",inline"`
	// APIServer tunes the API process: uwsgi from 2026.1, the eventlet
	// server's workers below it.
	// +optional
	APIServer *APIServerSpec `json:"apiServer,omitempty"`
	// ImportFiltering restricts the URLs web-download may fetch from; nil
	// fields resolve to safe defaults at render time.
	// +optional
	ImportFiltering *ImportFilteringSpec `json:"importFiltering,omitempty"`
	// ImportPlugins turns on image import plugins; a present sub-block turns
	// its plugin on.
	// +optional
	ImportPlugins *ImportPluginsSpec `json:"importPlugins,omitempty"`
	// DBPurge tunes the CronJob purging soft-deleted rows.
	// +optional
	DBPurge *DBPurgeSpec `json:"dbPurge,omitempty"`
	// Staging bounds the staging and tasks-work scratch volumes; 10Gi each when unset.
	// +optional
	Staging *StagingSpec `json:"staging,omitempty"`
	// ImageCache turns on the local image cache and its maintenance sidecar.
	// +optional
	ImageCache *ImageCacheSpec `json:"imageCache,omitempty"`
	// Middleware adds paste filters to the API pipeline.
	// +kubebuilder:validation:MaxItems=16
	// +listType=map
	// +listMapKey=name
	// +optional
	Middleware []serviceapi.MiddlewareSpec `json:"middleware,omitempty"`
	// Plugins render INI sections below the operator's defaults.
	// +kubebuilder:validation:MaxItems=32
	// +listType=map
	// +listMapKey=configSection
	// +optional
	Plugins []serviceapi.PluginSpec `json:"plugins,omitempty"`
}

// APIServerSpec tunes the API process of the active launch mode; the other
// mode's knob is accepted with a warning and has no effect.
type APIServerSpec struct {
	// UWSGI tunes uwsgi (releases 2026.1 and later).
	// +optional
	UWSGI *serviceapi.UWSGISpec `json:"uwsgi,omitempty"`
	// Workers of the eventlet glance-api server ([DEFAULT] workers, releases
	// before 2026.1); 2 when unset.
	// +kubebuilder:validation:Minimum=1
	// +optional
	Workers *int32 `json:"workers,omitempty"`
}

// Import URL schemes.
const (
	SchemeHTTP  = "http"
	SchemeHTTPS = "https"
)

// ImportFilteringSpec is [import_filtering_opts]. Only a nil list is unset;
// an empty list is honoured as written.
// +kubebuilder:validation:XValidation:rule="!(has(self.allowedSchemes) && size(self.allowedSchemes) > 0 && has(self.disallowedSchemes) && size(self.disallowedSchemes) > 0)",message="importFiltering: allowedSchemes and disallowedSchemes are exclusive"
// +kubebuilder:validation:XValidation:rule="!(has(self.allowedHosts) && size(self.allowedHosts) > 0 && has(self.disallowedHosts) && size(self.disallowedHosts) > 0)",message="importFiltering: allowedHosts and disallowedHosts are exclusive"
// +kubebuilder:validation:XValidation:rule="!(has(self.allowedPorts) && size(self.allowedPorts) > 0 && has(self.disallowedPorts) && size(self.disallowedPorts) > 0)",message="importFiltering: allowedPorts and disallowedPorts are exclusive"
type ImportFilteringSpec struct {
	// AllowedSchemes web-download may use; [https] when nil.
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:Enum=http;https
	// +optional
	AllowedSchemes []string `json:"allowedSchemes,omitzero"`
	// DisallowedSchemes web-download may not use; inert while allowedSchemes is nil.
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:Enum=http;https
	// +optional
	DisallowedSchemes []string `json:"disallowedSchemes,omitzero"`
	// AllowedHosts web-download may fetch from; empty when nil.
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=253
	// +optional
	AllowedHosts []string `json:"allowedHosts,omitzero"`
	// DisallowedHosts are added to the baseline of loopback, link-local
	// metadata and in-cluster API names, never replacing it.
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=253
	// +optional
	DisallowedHosts []string `json:"disallowedHosts,omitzero"`
	// AllowedPorts web-download may connect to; [443] when nil.
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:Minimum=1
	// +kubebuilder:validation:items:Maximum=65535
	// +optional
	AllowedPorts []int32 `json:"allowedPorts,omitzero"`
	// DisallowedPorts web-download may not connect to; inert while allowedPorts is nil.
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:Minimum=1
	// +kubebuilder:validation:items:Maximum=65535
	// +optional
	DisallowedPorts []int32 `json:"disallowedPorts,omitzero"`
}

// Image conversion output formats.
const (
	FormatQCOW2 = "qcow2"
	FormatRaw   = "raw"
	FormatVMDK  = "vmdk"
)

// ImportPluginsSpec turns import plugins on; they run in the fixed order
// image_decompression, image_conversion, inject_image_metadata.
type ImportPluginsSpec struct {
	// Decompression turns on image_decompression; it needs an explicit staging bound.
	// +optional
	Decompression *DecompressionSpec `json:"decompression,omitempty"`
	// Conversion turns on image_conversion.
	// +optional
	Conversion *ConversionSpec `json:"conversion,omitempty"`
	// InjectMetadata turns on inject_image_metadata.
	// +optional
	InjectMetadata *InjectMetadataSpec `json:"injectMetadata,omitempty"`
}

// DecompressionSpec has no settings: its presence turns the plugin on.
type DecompressionSpec struct{}

// ConversionSpec is [image_conversion].
type ConversionSpec struct {
	// OutputFormat of converted images; raw when unset.
	// +kubebuilder:validation:Enum=qcow2;raw;vmdk
	// +optional
	OutputFormat string `json:"outputFormat,omitempty"`
}

// InjectMetadataSpec is [inject_metadata_properties].
// +kubebuilder:validation:XValidation:rule="self.properties.all(k, size(k) <= 255 && size(self.properties[k]) <= 255)",message="importPlugins.injectMetadata.properties names and values must be at most 255 characters"
type InjectMetadataSpec struct {
	// Properties set on every imported image.
	// +kubebuilder:validation:MinProperties=1
	// +kubebuilder:validation:MaxProperties=64
	// +required
	Properties map[string]string `json:"properties,omitempty"`
	// IgnoreUserRoles are exempt from the injection; [admin] when nil, none when [].
	// +kubebuilder:validation:MaxItems=64
	// +kubebuilder:validation:items:MinLength=1
	// +kubebuilder:validation:items:MaxLength=255
	// +optional
	IgnoreUserRoles []string `json:"ignoreUserRoles,omitzero"`
}

// Rendering defaults of the purge CronJob.
const (
	DefaultDBPurgeSchedule      = "1 0 * * *"
	DefaultDBPurgeRetentionDays = 30
)

// DBPurgeSpec tunes the <cr>-db-purge CronJob; every field resolves at
// reconcile time, so defaults follow the operator.
type DBPurgeSpec struct {
	// RetentionDays keeps soft-deleted rows this long; 30 when unset.
	// +kubebuilder:validation:Minimum=1
	// +optional
	RetentionDays *int32 `json:"retentionDays,omitempty"`
	// Schedule in standard cron syntax (five fields or an @descriptor); "1 0 * * *" when unset.
	// +kubebuilder:validation:MaxLength=128
	// +optional
	Schedule string `json:"schedule,omitempty"`
	// PurgeImagesTable also purges the images table (purge_images_table); false when unset.
	// +optional
	PurgeImagesTable *bool `json:"purgeImagesTable,omitempty"`
	// Suspend pauses the CronJob; DBPurgeReady says so.
	// +optional
	Suspend bool `json:"suspend,omitempty"`
}

// DefaultStagingSize bounds each scratch volume unless spec.staging says otherwise.
var DefaultStagingSize = resource.MustParse("10Gi")

// StagingSpec bounds the staging and tasks-work emptyDirs.
// +kubebuilder:validation:XValidation:rule="!(has(self.sizeLimit) && has(self.unbounded) && self.unbounded)",message="staging: sizeLimit and unbounded are exclusive"
type StagingSpec struct {
	// SizeLimit of each of the two volumes; 10Gi when unset; at least 1Mi.
	// +optional
	SizeLimit *resource.Quantity `json:"sizeLimit,omitempty"`
	// Unbounded drops the limit from both volumes.
	// +optional
	Unbounded bool `json:"unbounded,omitempty"`
}

// Rendering defaults of the image cache.
var (
	DefaultImageCacheSize      = resource.MustParse("10Gi")
	DefaultMaintenanceInterval = metav1.Duration{Duration: 5 * 60 * 1e9}
)

// ImageCacheSpec turns on the image cache: an image-cache emptyDir, the
// cache paste filter and a cache-maintenance sidecar.
type ImageCacheSpec struct {
	// SizeLimit of the cache volume; 10Gi when unset; at least 1Mi. The
	// pruner keeps the cache under 80% of it.
	// +optional
	SizeLimit *resource.Quantity `json:"sizeLimit,omitempty"`
	// MaintenanceInterval between pruner/cleaner passes besides the size
	// trigger; 5m when unset; at least 1m.
	// +optional
	MaintenanceInterval *metav1.Duration `json:"maintenanceInterval,omitempty"`
}

// Upgrade phases of status.upgradePhase.
const (
	PhaseExpanding     = "Expanding"
	PhaseMigrating     = "Migrating"
	PhaseRollingUpdate = "RollingUpdate"
	PhaseContracting   = "Contracting"
)

// GlanceStatus is the observed state of a Glance.
type GlanceStatus struct {
	serviceapi.ServiceStatus `json:",inline"`
	// UpgradePhase is the phase of a release upgrade in flight; empty at rest.
	// +kubebuilder:validation:Enum=Expanding;Migrating;RollingUpdate;Contracting
	// +optional
	UpgradePhase string `json:"upgradePhase,omitempty"`
}

// Glance runs the OpenStack Image service API.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=='Ready')].status`
// +kubebuilder:printcolumn:name="Release",type=string,JSONPath=`.status.installedRelease`
// +kubebuilder:printcolumn:name="Endpoint",type=string,JSONPath=`.status.endpoint`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Glance struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   GlanceSpec   `json:"spec,omitempty"`
	Status GlanceStatus `json:"status,omitempty"`
}

// GlanceList lists Glances.
// +kubebuilder:object:root=true
type GlanceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Glance `json:"items"`
}
