// Package workload renders the Kubernetes objects an API service runs as:
// Deployment, db-sync Job, Service, PodDisruptionBudget, HorizontalPodAutoscaler,
// NetworkPolicy and HTTPRoute. Builders are pure and deterministic; everything
// service-specific (ports, paths, names, env) arrives as parameters.
package workload
