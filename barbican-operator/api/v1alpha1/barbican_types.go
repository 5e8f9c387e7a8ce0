package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// BarbicanSpec is the desired state of an OpenStack Barbican key manager API.
type BarbicanSpec struct {
	serviceapi.ServiceSpec `json:",inline"`
	// APIServer tunes the uwsgi server of the API.
	// +optional
	APIServer *APIServerSpec `json:"apiServer,omitempty"`
	// DBClean tunes the CronJob cleaning soft-deleted rows; every field
	// resolves at reconcile time, so unset fields follow the operator's defaults.
	// +optional
	DBClean *DBCleanSpec `json:"dbClean,omitempty"`
	// Middleware adds paste filters to the barbican-api-keystone pipeline.
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

// APIServerSpec tunes the API process.
type APIServerSpec struct {
	// UWSGI tunes uwsgi.
	// +optional
	UWSGI *serviceapi.UWSGISpec `json:"uwsgi,omitempty"`
}

// Rendering defaults of the clean CronJob.
const (
	DefaultDBCleanSchedule      = "1 0 * * *"
	DefaultDBCleanRetentionDays = 90
)

// DBCleanSpec tunes the {name}-db-clean CronJob (barbican-manage db clean).
type DBCleanSpec struct {
	// RetentionDays keeps soft-deleted rows this long (--min-days); 90 when unset.
	// +kubebuilder:validation:Minimum=1
	// +optional
	RetentionDays *int32 `json:"retentionDays,omitempty"`
	// Schedule in standard cron syntax (five fields or an @descriptor); "1 0 * * *" when unset.
	// +kubebuilder:validation:MaxLength=128
	// +optional
	Schedule string `json:"schedule,omitempty"`
	// SoftDeleteExpiredSecrets also soft-deletes expired secrets
	// (--soft-delete-expired-secrets); true when unset, unlike upstream.
	// +optional
	SoftDeleteExpiredSecrets *bool `json:"softDeleteExpiredSecrets,omitempty"`
	// CleanUnassociatedProjects also removes projects no longer referenced
	// (--clean-unassociated-projects); false when unset.
	// +optional
	CleanUnassociatedProjects *bool `json:"cleanUnassociatedProjects,omitempty"`
	// Suspend pauses the CronJob; DBCleanReady says so.
	// +optional
	Suspend bool `json:"suspend,omitempty"`
}

// EffectiveRetentionDays is retentionDays, 90 when unset.
func (d *DBCleanSpec) EffectiveRetentionDays() int32 {
	if d == nil || d.RetentionDays == nil {
		return DefaultDBCleanRetentionDays
	}
	return *d.RetentionDays
}

// EffectiveSchedule is schedule, "1 0 * * *" when unset.
func (d *DBCleanSpec) EffectiveSchedule() string {
	if d == nil || d.Schedule == "" {
		return DefaultDBCleanSchedule
	}
	return d.Schedule
}

// SoftDeletesExpired is softDeleteExpiredSecrets, true when unset.
func (d *DBCleanSpec) SoftDeletesExpired() bool {
	return d == nil || d.SoftDeleteExpiredSecrets == nil || *d.SoftDeleteExpiredSecrets
}

// CleansUnassociated is cleanUnassociatedProjects, false when unset.
func (d *DBCleanSpec) CleansUnassociated() bool {
	return d != nil && d.CleanUnassociatedProjects != nil && *d.CleanUnassociatedProjects
}

// Suspended is suspend, false when the block is unset.
func (d *DBCleanSpec) Suspended() bool { return d != nil && d.Suspend }

// BarbicanStatus is the observed state of a Barbican.
type BarbicanStatus struct {
	serviceapi.ServiceStatus `json:",inline"`
	// ProjectedSecretStores are the sorted store names of the last valid
	// projection; written on the valid path only.
	// +listType=atomic
	// +optional
	ProjectedSecretStores []string `json:"projectedSecretStores,omitempty"`
	// ProjectedSecretStoreHosts are the server URLs of that projection; the
	// NetworkPolicy keeps their egress while a later projection is invalid.
	// +listType=atomic
	// +optional
	ProjectedSecretStoreHosts []string `json:"projectedSecretStoreHosts,omitempty"`
}

// Barbican runs the OpenStack Key Manager service API.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Ready",type=string,JSONPath=`.status.conditions[?(@.type=='Ready')].status`
// +kubebuilder:printcolumn:name="Release",type=string,JSONPath=`.status.installedRelease`
// +kubebuilder:printcolumn:name="Endpoint",type=string,JSONPath=`.status.endpoint`
// +kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`
type Barbican struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   BarbicanSpec   `json:"spec,omitempty"`
	Status BarbicanStatus `json:"status,omitempty"`
}

// BarbicanList lists Barbicans.
// +kubebuilder:object:root=true
type BarbicanList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Barbican `json:"items"`
}
