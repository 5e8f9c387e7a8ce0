package openbao

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// The names a managed OpenBaoCluster instance is provisioned with.
const (
	// KVMount is the KV v2 mount Barbican stores secrets in.
	KVMount = "barbican"
	// AppRole is the AppRole role whose pairs Barbican logs in with.
	AppRole = "barbican"
	// KubernetesRole is the kubernetes-auth role the operator logs in with.
	KubernetesRole = "provisioner"
	// BarbicanPolicy is the policy AppRole tokens carry.
	BarbicanPolicy = "barbican"
	// ProvisionerPolicy is the policy kubernetes-auth tokens carry.
	ProvisionerPolicy = "provisioner"
)

// BarbicanPolicyHCL grants what Barbican's vault plugin needs on the mount.
const BarbicanPolicyHCL = `path "barbican/data/*" {
  capabilities = ["create", "read", "update", "delete", "list"]
}
path "barbican/metadata/*" {
  capabilities = ["list", "read", "delete"]
}
`

// ProvisionerPolicyHCL grants exactly the operator's provisioning calls:
// the mount check, the role-id read and the secret-id mint.
const ProvisionerPolicyHCL = `path "sys/mounts/barbican" {
  capabilities = ["read"]
}
path "auth/approle/role/barbican/role-id" {
  capabilities = ["read"]
}
path "auth/approle/role/barbican/secret-id" {
  capabilities = ["update"]
}
`

// ManagedOptions describe the instance and the kube-apiserver its kubernetes
// auth reviews tokens against.
type ManagedOptions struct {
	// Instance is the OpenBaoCluster name: the role is bound to the
	// ServiceAccount <Instance>-provisioner and to the audience <Instance>.
	Instance string
	// Namespace is the ServiceAccount's namespace.
	Namespace string
	// KubeHost is the kube-apiserver URL Vault sends TokenReviews to.
	KubeHost string
	// KubeCAPEM is the CA of the kube-apiserver's serving certificate.
	KubeCAPEM []byte
	// ReviewerJWT authenticates the TokenReviews (see Kube.ReviewerJWT). When
	// empty Vault uses the login JWT itself, which the kube-apiserver only
	// accepts if that token carries the apiserver's own audience.
	ReviewerJWT string
	// SecretIDTTL is the AppRole's secret_id_ttl; 0 means no expiry.
	SecretIDTTL time.Duration
}

// ConfigureManaged gives the server what a managed OpenBaoCluster instance
// holds: the KV v2 mount, the AppRole role with its policy, and kubernetes
// auth with the provisioner role and its policy.
func (s *Server) ConfigureManaged(ctx context.Context, o ManagedOptions) error {
	if o.Instance == "" || o.Namespace == "" || o.KubeHost == "" || len(o.KubeCAPEM) == 0 {
		return fmt.Errorf("ConfigureManaged needs Instance, Namespace, KubeHost and KubeCAPEM")
	}
	if err := s.EnableKV2(ctx, KVMount); err != nil {
		return err
	}
	if err := s.EnableAuth(ctx, "approle"); err != nil {
		return err
	}
	if err := s.WritePolicy(ctx, BarbicanPolicy, BarbicanPolicyHCL); err != nil {
		return err
	}
	if err := s.WriteAppRole(ctx, AppRole, AppRoleOptions{Policies: []string{BarbicanPolicy}, SecretIDTTL: o.SecretIDTTL}); err != nil {
		return err
	}
	if err := s.EnableAuth(ctx, "kubernetes"); err != nil {
		return err
	}
	kubeConfig := map[string]any{
		"kubernetes_host":    strings.TrimSuffix(o.KubeHost, "/"),
		"kubernetes_ca_cert": string(o.KubeCAPEM),
		// Outside a pod there is no local token or CA to fall back on.
		"disable_local_ca_jwt": true,
	}
	if o.ReviewerJWT != "" {
		kubeConfig["token_reviewer_jwt"] = o.ReviewerJWT
	}
	if err := s.Call(ctx, http.MethodPost, "auth/kubernetes/config", kubeConfig, nil); err != nil {
		return err
	}
	if err := s.WritePolicy(ctx, ProvisionerPolicy, ProvisionerPolicyHCL); err != nil {
		return err
	}
	return s.Call(ctx, http.MethodPost, "auth/kubernetes/role/"+KubernetesRole, map[string]any{
		"bound_service_account_names":      []string{o.Instance + "-provisioner"},
		"bound_service_account_namespaces": []string{o.Namespace},
		"audience":                         o.Instance,
		"token_policies":                   []string{ProvisionerPolicy},
		"token_ttl":                        "10m",
	}, nil)
}
