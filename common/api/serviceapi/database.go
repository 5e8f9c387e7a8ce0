package serviceapi

// Database credential modes.
const (
	CredentialsStatic  = "Static"
	CredentialsDynamic = "Dynamic"
)

// Database TLS modes.
const (
	TLSDisabled   = "disabled"
	TLSPrefer     = "prefer"
	TLSRequire    = "require"
	TLSVerifyCA   = "verify-ca"
	TLSVerifyFull = "verify-full"
)

// DatabaseSpec selects a managed MariaDB (clusterRef) or an existing server (host).
// +kubebuilder:validation:XValidation:rule="has(self.clusterRef) != has(self.host)",message="exactly one of database.clusterRef or database.host must be set"
// +kubebuilder:validation:XValidation:rule="!has(self.credentialsMode) || self.credentialsMode != 'Dynamic' || has(self.clusterRef)",message="database.credentialsMode Dynamic requires database.clusterRef"
type DatabaseSpec struct {
	// ClusterRef names a MariaDB (mariadb-operator) in the CR's namespace; the operator
	// provisions the Database, User and Grant on it.
	// +optional
	ClusterRef *LocalObjectRef `json:"clusterRef,omitempty"`
	// Host of an existing database server (brownfield); nothing is provisioned.
	// +kubebuilder:validation:Pattern=`^[a-zA-Z0-9._:-]+$`
	// +optional
	Host string `json:"host,omitempty"`
	// Port of the database server; 3306 when unset.
	// +kubebuilder:validation:Minimum=1
	// +kubebuilder:validation:Maximum=65535
	// +optional
	Port int32 `json:"port,omitempty"`
	// Database is the schema name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:Pattern=`^[A-Za-z0-9_]+$`
	// +required
	Database string `json:"database,omitempty"`
	// SecretRef names the Secret holding username and password; key is unused.
	// +required
	SecretRef SecretKeyRef `json:"secretRef,omitzero"`
	// CredentialsMode is Static (default) or Dynamic (an external engine issues the
	// credential, so no User/Grant is provisioned).
	// +kubebuilder:validation:Enum=Static;Dynamic
	// +optional
	CredentialsMode string `json:"credentialsMode,omitempty"`
	// TLS configures the client side of the database connection.
	// +optional
	TLS *DatabaseTLS `json:"tls,omitempty"`
	// Replicas is accepted for compatibility and ignored.
	// +kubebuilder:default=3
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
	// StorageSize is accepted for compatibility and ignored.
	// +kubebuilder:default="100Gi"
	// +optional
	StorageSize string `json:"storageSize,omitempty"`
}

// DatabaseTLS configures TLS to the database; an empty or disabled mode turns it off.
type DatabaseTLS struct {
	// Mode is one of disabled, prefer, require, verify-ca, verify-full.
	// +kubebuilder:validation:Enum=disabled;prefer;require;verify-ca;verify-full
	// +optional
	Mode string `json:"mode,omitempty"`
	// CABundleSecretRef names the Secret holding ca.crt; key is unused.
	// +optional
	CABundleSecretRef *SecretKeyRef `json:"caBundleSecretRef,omitempty"`
	// ClientCertSecretRef names the Secret holding tls.crt and tls.key; key is unused.
	// +optional
	ClientCertSecretRef *SecretKeyRef `json:"clientCertSecretRef,omitempty"`
}

// Enabled reports whether the connection uses TLS.
func (t *DatabaseTLS) Enabled() bool {
	return t != nil && t.Mode != "" && t.Mode != TLSDisabled
}

// EffectivePort returns the port, 3306 when unset.
func (d DatabaseSpec) EffectivePort() int32 {
	if d.Port == 0 {
		return 3306
	}
	return d.Port
}

// Managed reports whether the operator provisions the schema on a MariaDB CR.
func (d DatabaseSpec) Managed() bool { return d.ClusterRef != nil }

// Dynamic reports whether credentials are issued by an external engine.
func (d DatabaseSpec) Dynamic() bool { return d.CredentialsMode == CredentialsDynamic }
