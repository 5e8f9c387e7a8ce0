package serviceapi

// ImageSpec pins the service image by tag or by digest, never both.
// +kubebuilder:validation:XValidation:rule="has(self.tag) != has(self.digest)",message="exactly one of image.tag or image.digest must be set"
type ImageSpec struct {
	// Repository is the image repository, e.g. registry.example.org/openstack/placement.
	// +kubebuilder:validation:Pattern=`^[a-z0-9]+([._:/-][a-z0-9]+)*$`
	// +required
	Repository string `json:"repository,omitempty"`
	// Tag pins the image by tag. A tag that is wholly a release, YYYY.N or
	// YYYY.N-suffix (2025.2, 2025.2-p1), must name spec.openStackRelease; any
	// other tag (latest, 2025.2.3, 2025.2rc1) names no release and is not checked.
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$`
	// +optional
	Tag string `json:"tag,omitempty"`
	// Digest pins the image by content digest.
	// +kubebuilder:validation:Pattern=`^sha256:[a-f0-9]{64}$`
	// +optional
	Digest string `json:"digest,omitempty"`
}

// Reference returns repo@digest when a digest is set, else repo:tag.
func (i ImageSpec) Reference() string {
	if i.Digest != "" {
		return i.Repository + "@" + i.Digest
	}
	return i.Repository + ":" + i.Tag
}
