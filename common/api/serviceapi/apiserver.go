package serviceapi

// Rendering defaults of the uwsgi block.
const (
	DefaultUWSGIProcesses int32 = 2
	DefaultUWSGIThreads   int32 = 1
)

// UWSGISpec tunes the uwsgi server of the API.
// +kubebuilder:validation:XValidation:rule="!has(self.httpKeepAliveTimeout) || !has(self.httpKeepAlive) || self.httpKeepAlive",message="apiServer.uwsgi.httpKeepAliveTimeout must not be set when httpKeepAlive is false"
type UWSGISpec struct {
	// Processes of uwsgi; 2 when unset.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:default=2
	// +optional
	Processes int32 `json:"processes,omitempty"`
	// Threads per process; 1 when unset.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:default=1
	// +optional
	Threads int32 `json:"threads,omitempty"`
	// HTTPKeepAlive enables HTTP keep-alive (default true; explicit false honoured).
	// +optional
	HTTPKeepAlive *bool `json:"httpKeepAlive,omitempty"`
	// HTTPKeepAliveTimeout in seconds; omitted when unset.
	// +kubebuilder:validation:Minimum=1
	// +optional
	HTTPKeepAliveTimeout *int32 `json:"httpKeepAliveTimeout,omitempty"`
	// Harakiri kills a worker stuck on one request for this many seconds; must be
	// below the drain window (grace - preStop).
	// +kubebuilder:validation:Minimum=1
	// +optional
	Harakiri *int32 `json:"harakiri,omitempty"`
}

// EffectiveProcesses returns processes, 2 when unset or non-positive.
func (u *UWSGISpec) EffectiveProcesses() int32 {
	if u == nil || u.Processes <= 0 {
		return DefaultUWSGIProcesses
	}
	return u.Processes
}

// EffectiveThreads returns threads, 1 when unset or non-positive.
func (u *UWSGISpec) EffectiveThreads() int32 {
	if u == nil || u.Threads <= 0 {
		return DefaultUWSGIThreads
	}
	return u.Threads
}

// KeepAlive reports whether HTTP keep-alive is on (default true).
func (u *UWSGISpec) KeepAlive() bool {
	return u == nil || u.HTTPKeepAlive == nil || *u.HTTPKeepAlive
}
