package serviceapi

// Middleware positions in the API's paste pipeline.
const (
	MiddlewareBefore = "before"
	MiddlewareAfter  = "after"
)

// MiddlewareSpec adds a paste filter to the API pipeline.
type MiddlewareSpec struct {
	// Name of the filter section ([filter:<name>]) and of its pipeline entry.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_.-]+$`
	// +required
	Name string `json:"name,omitempty"`
	// FilterFactory is the paste.filter_factory entry point, module:callable.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=256
	// +kubebuilder:validation:Pattern=`^[A-Za-z_][A-Za-z0-9_.]*:[A-Za-z_][A-Za-z0-9_.]*$`
	// +required
	FilterFactory string `json:"filterFactory,omitempty"`
	// Position puts the filter before the operator's filters or after them
	// (still before the application).
	// +kubebuilder:validation:Enum=before;after
	// +required
	Position string `json:"position,omitempty"`
	// Config are the filter section's other keys.
	// +kubebuilder:validation:MaxProperties=64
	// +optional
	Config map[string]string `json:"config,omitempty"`
}

// PluginSpec renders an INI section of a service plugin under the
// operator's defaults and the user's extraConfig.
type PluginSpec struct {
	// Name of the plugin, for the reader; not rendered.
	// +kubebuilder:validation:MaxLength=64
	// +optional
	Name string `json:"name,omitempty"`
	// ConfigSection is the INI section the plugin reads.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=128
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_.:-]+$`
	// +required
	ConfigSection string `json:"configSection,omitempty"`
	// Config are the section's keys.
	// +kubebuilder:validation:MaxProperties=128
	// +optional
	Config map[string]string `json:"config,omitempty"`
}
