package serviceapi

// GatewaySpec exposes the API through a Gateway API HTTPRoute.
type GatewaySpec struct {
	// Hostname the route matches.
	// +kubebuilder:validation:MinLength=1
	// +required
	Hostname string `json:"hostname,omitempty"`
	// ParentRef names the Gateway.
	// +required
	ParentRef GatewayParentRef `json:"parentRef,omitzero"`
	// Path prefix of the route; "/" when unset, a leading "/" is added.
	// +optional
	Path string `json:"path,omitempty"`
	// Annotations copied onto the HTTPRoute.
	// +optional
	Annotations map[string]string `json:"annotations,omitempty"`
}

// GatewayParentRef names a Gateway and optionally one of its listeners.
type GatewayParentRef struct {
	// Name of the Gateway.
	// +kubebuilder:validation:MinLength=1
	// +required
	Name string `json:"name,omitempty"`
	// Namespace of the Gateway; the CR's namespace when unset.
	// +optional
	Namespace string `json:"namespace,omitempty"`
	// SectionName selects one listener; all listeners when unset.
	// +optional
	SectionName string `json:"sectionName,omitempty"`
}

// EffectivePath returns the route path with a leading slash, "/" when unset.
func (g GatewaySpec) EffectivePath() string {
	switch {
	case g.Path == "":
		return "/"
	case g.Path[0] != '/':
		return "/" + g.Path
	default:
		return g.Path
	}
}
