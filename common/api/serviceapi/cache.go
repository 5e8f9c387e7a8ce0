package serviceapi

import "strings"

// DefaultCacheBackend is the dogpile backend the webhook fills in.
const DefaultCacheBackend = "dogpile.cache.pymemcache"

// CacheSpec points the Keystone token cache at a memcached cluster or servers.
// +kubebuilder:validation:XValidation:rule="has(self.clusterRef) != (has(self.servers) && size(self.servers) > 0)",message="exactly one of cache.clusterRef or cache.servers must be set"
// +kubebuilder:validation:XValidation:rule="!has(self.clusterRef) || !(self.clusterRef.name.contains('\\r') || self.clusterRef.name.contains('\\n'))",message="cache.clusterRef.name must not contain CR or LF"
// +kubebuilder:validation:XValidation:rule="!has(self.servers) || self.servers.all(s, !(s.contains('\\r') || s.contains('\\n')))",message="cache.servers entries must not contain CR or LF"
type CacheSpec struct {
	// ClusterRef names a memcached Service in the CR's namespace, reached on port 11211.
	// +optional
	ClusterRef *LocalObjectRef `json:"clusterRef,omitempty"`
	// Servers lists host:port memcached endpoints.
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:items:MaxLength=253
	// +optional
	Servers []string `json:"servers,omitempty"`
	// Backend is the dogpile cache backend; accepted and not rendered.
	// +kubebuilder:validation:MinLength=1
	Backend string `json:"backend"`
	// Replicas is accepted for compatibility and ignored.
	// +kubebuilder:default=3
	// +optional
	Replicas int32 `json:"replicas,omitempty"`
}

// MemcachedServers renders the servers joined by commas, or <clusterRef>:11211.
func (c CacheSpec) MemcachedServers() string {
	if c.ClusterRef != nil {
		return c.ClusterRef.Name + ":11211"
	}
	return strings.Join(c.Servers, ",")
}
