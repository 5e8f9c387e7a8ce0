// Package rbac holds the RBAC markers every service operator shares: what
// the shared steps, watches and finalizer touch. Each operator's
// controller-gen run reads them next to its own (hack/generate.sh), so the
// generated ClusterRole of every operator holds them; the package has no code.
package rbac

// The API Deployment of each CR: created, put back to its desired state when
// it drifts, deleted when it must be recreated (an immutable selector) and,
// on a target cluster, by the finalizer; watched for its rollout.
// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list;watch;create;update;patch;delete

// The API Service, the config artefacts (ConfigMaps or Secrets, three kept,
// older ones deleted) and the db-connection Secret, owned like the
// Deployment; and the credential Secrets a CR references, read and watched
// so that a rotation rolls the pods.
// +kubebuilder:rbac:groups="",resources=services;configmaps;secrets,verbs=get;list;watch;create;update;patch;delete

// The db-sync and upgrade-phase Jobs: created for a migration, deleted to
// re-run one whose template changed, watched for their outcome; the runs of
// a CR's CronJob are read the same way.
// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=get;list;watch;create;update;patch;delete

// The API's PodDisruptionBudget, owned like the Deployment.
// +kubebuilder:rbac:groups=policy,resources=poddisruptionbudgets,verbs=get;list;watch;create;update;patch;delete

// The optional HorizontalPodAutoscaler: created when spec.autoscaling is
// set, deleted when it is unset.
// +kubebuilder:rbac:groups=autoscaling,resources=horizontalpodautoscalers,verbs=get;list;watch;create;update;patch;delete

// The optional NetworkPolicy: created when spec.networkPolicy is set,
// deleted when it is unset.
// +kubebuilder:rbac:groups=networking.k8s.io,resources=networkpolicies,verbs=get;list;watch;create;update;patch;delete

// The optional HTTPRoute on a Gateway: created when spec.gateway is set,
// deleted when it is unset (only where the Gateway API is installed).
// +kubebuilder:rbac:groups=gateway.networking.k8s.io,resources=httproutes,verbs=get;list;watch;create;update;patch;delete

// The health probe under --probe-via-apiserver GETs the API Service through
// the API server; without that flag the grant is unused.
// +kubebuilder:rbac:groups="",resources=services/proxy,verbs=get

// The managed schema: mariadb-operator's Database, User and Grant of each
// CR, created, kept and deleted with it.
// +kubebuilder:rbac:groups=k8s.mariadb.com,resources=databases;users;grants,verbs=get;list;watch;create;update;patch;delete

// The MariaDB a CR's database names: its readiness and address. Read only.
// +kubebuilder:rbac:groups=k8s.mariadb.com,resources=mariadbs,verbs=get;list;watch

// External Secrets Operator: the SecretStore or ClusterSecretStore behind a
// credential Secret gates its use, and a missing Secret's ExternalSecret
// explains why it is missing. Read only.
// +kubebuilder:rbac:groups=external-secrets.io,resources=clustersecretstores;secretstores;externalsecrets,verbs=get;list;watch

// The PriorityClass a CR names, looked up (from the cache) by the webhook
// before a Deployment would carry it. Read only.
// +kubebuilder:rbac:groups=scheduling.k8s.io,resources=priorityclasses,verbs=get;list;watch

// Events on the CRs (the events.k8s.io API the recorder writes, and the core
// one older clusters serve).
// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch
// +kubebuilder:rbac:groups="",resources=events,verbs=create;patch
