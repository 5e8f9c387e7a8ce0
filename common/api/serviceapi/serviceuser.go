package serviceapi

// ServiceUserSpec is the Keystone identity the service validates tokens with.
type ServiceUserSpec struct {
	// Username of the service user; webhook default is the service name.
	// +optional
	Username string `json:"username,omitempty"`
	// ProjectName of the service user; webhook default service.
	// +optional
	ProjectName string `json:"projectName,omitempty"`
	// UserDomainName; webhook default Default.
	// +optional
	UserDomainName string `json:"userDomainName,omitempty"`
	// ProjectDomainName; webhook default Default.
	// +optional
	ProjectDomainName string `json:"projectDomainName,omitempty"`
	// SecretRef names the Secret and key holding the password (key defaults to password).
	// +required
	SecretRef SecretKeyRef `json:"secretRef,omitzero"`
}

// DefaultPasswordKey is the service-user Secret key used when secretRef.key is empty.
const DefaultPasswordKey = "password"

// PasswordKey returns the Secret key holding the password.
func (s ServiceUserSpec) PasswordKey() string {
	if s.SecretRef.Key == "" {
		return DefaultPasswordKey
	}
	return s.SecretRef.Key
}
