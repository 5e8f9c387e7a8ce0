package workload

// Well-known label keys rendered on every child object.
const (
	NameLabel      = "app.kubernetes.io/name"
	InstanceLabel  = "app.kubernetes.io/instance"
	ManagedByLabel = "app.kubernetes.io/managed-by"
	ComponentLabel = "app.kubernetes.io/component"
	ComponentAPI   = "api"
	// ConfigBaseLabel groups every generation of one content-addressed
	// config artefact (see configartifact).
	ConfigBaseLabel = "operators.c5c3.io/config-base"
)

// Identity names one service instance; it is the source of every child's
// name, namespace and labels.
type Identity struct {
	Service   string // app.kubernetes.io/name, e.g. "placement"
	Instance  string // CR name: app.kubernetes.io/instance and child object name
	Namespace string
	ManagedBy string // e.g. "placement-operator"
}

// Labels are the labels carried by every child object.
func (id Identity) Labels() map[string]string {
	return map[string]string{
		NameLabel:      id.Service,
		InstanceLabel:  id.Instance,
		ManagedByLabel: id.ManagedBy,
	}
}

// SelectorLabels are name + instance only, so a change of the managing
// operator never changes an immutable Deployment selector.
func (id Identity) SelectorLabels() map[string]string {
	return map[string]string{
		NameLabel:     id.Service,
		InstanceLabel: id.Instance,
	}
}

// PodLabels adds the API component label, which lets the Service narrow its
// selector to API pods once the rollout has converged.
func (id Identity) PodLabels() map[string]string {
	l := id.Labels()
	l[ComponentLabel] = ComponentAPI
	return l
}
