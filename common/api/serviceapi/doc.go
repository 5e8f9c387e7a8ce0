// Package serviceapi holds the API structs the service operators share: image,
// database, cache, service user, secret and cluster references, gateway,
// autoscaling, network policy, uwsgi, logging and policy blocks.
// +kubebuilder:object:generate=true
package serviceapi
