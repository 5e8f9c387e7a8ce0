// Package rbac holds the RBAC markers every service operator shares: what
// the shared steps, watches and finalizer touch. Each operator's
// controller-gen run reads them next to its own (hack/generate.sh), so the
// generated ClusterRole of every operator holds them; the package has no code.
package rbac

// Children: the API Deployment, its Service, PDB, HPA, NetworkPolicy and
// HTTPRoute, the config artefacts, the db-connection Secret, the db-sync Job.
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups="",resources=services;configmaps;secrets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=policy,resources=poddisruptionbudgets,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=autoscaling,resources=horizontalpodautoscalers,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=networking.k8s.io,resources=networkpolicies,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=gateway.networking.k8s.io,resources=httproutes,verbs=get;list;watch;create;update;patch;delete

// The health probe under --probe-via-apiserver GETs the API Service through the API server.
// +kubebuilder:rbac:groups="",resources=services/proxy,verbs=get

// The schema: mariadb-operator's Database, User and Grant, and the MariaDB they name.
// +kubebuilder:rbac:groups=k8s.mariadb.com,resources=databases;users;grants,verbs=get;list;watch;create;update;patch;delete
// +kubebuilder:rbac:groups=k8s.mariadb.com,resources=mariadbs,verbs=get;list;watch

// Inputs: the ESO stores gating the credential Secrets, the PriorityClass a
// Deployment names (admission), and events.
// +kubebuilder:rbac:groups=external-secrets.io,resources=clustersecretstores;secretstores;externalsecrets,verbs=get;list;watch
// +kubebuilder:rbac:groups=scheduling.k8s.io,resources=priorityclasses,verbs=get;list;watch
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch
