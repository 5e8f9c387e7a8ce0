package serviceapi

// Logging formats.
const (
	LogFormatText = "text"
	LogFormatJSON = "json"
)

// LogLevel is a Python logging level name.
// +kubebuilder:validation:Enum=DEBUG;INFO;WARNING;ERROR;CRITICAL
type LogLevel string

// LoggingSpec selects the log format and levels.
type LoggingSpec struct {
	// Format is text (default) or json; json renders logging.conf.
	// +kubebuilder:validation:Enum=text;json
	// +optional
	Format string `json:"format,omitempty"`
	// Level of the root logger; only reaches logging.conf.
	// +kubebuilder:validation:Enum=DEBUG;INFO;WARNING;ERROR;CRITICAL
	// +optional
	Level string `json:"level,omitempty"`
	// Debug sets [DEFAULT] debug.
	// +optional
	Debug *bool `json:"debug,omitempty"`
	// PerLoggerLevels renders [DEFAULT] default_log_levels.
	// +kubebuilder:validation:XValidation:rule="self.all(k, size(k) > 0)",message="logging.perLoggerLevels names must not be empty"
	// +kubebuilder:validation:MaxProperties=64
	// +optional
	PerLoggerLevels map[string]LogLevel `json:"perLoggerLevels,omitempty"`
}

// PolicyOverrides customises oslo.policy rules through policy.yaml.
// +kubebuilder:validation:XValidation:rule="(has(self.rules) && size(self.rules) > 0) || has(self.configMapRef)",message="policyOverrides needs rules or configMapRef"
// +kubebuilder:validation:XValidation:rule="!has(self.rules) || self.rules.all(k, size(k) > 0 && size(self.rules[k]) > 0)",message="policyOverrides rule names and values must not be empty"
type PolicyOverrides struct {
	// Rules maps policy names to check strings; inline rules win over the ConfigMap.
	// +kubebuilder:validation:MaxProperties=512
	// +optional
	Rules map[string]string `json:"rules,omitempty"`
	// ConfigMapRef names a ConfigMap whose policy.yaml key holds a YAML map of rules.
	// +optional
	ConfigMapRef *LocalObjectRef `json:"configMapRef,omitempty"`
}
