package openbao

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// EnableKV2 mounts a KV version 2 secrets engine at path.
func (s *Server) EnableKV2(ctx context.Context, path string) error {
	return s.Call(ctx, http.MethodPost, "sys/mounts/"+path, map[string]any{
		"type":    "kv",
		"options": map[string]string{"version": "2"},
	}, nil)
}

// DisableMount unmounts the secrets engine at path, e.g. to show an instance
// that is not provisioned.
func (s *Server) DisableMount(ctx context.Context, path string) error {
	return s.Call(ctx, http.MethodDelete, "sys/mounts/"+path, nil, nil)
}

// EnableAuth enables the auth method kind (approle, kubernetes) at its
// default path; an already enabled one is left as it is.
func (s *Server) EnableAuth(ctx context.Context, kind string) error {
	var methods struct {
		Data map[string]any `json:"data"`
	}
	if err := s.Call(ctx, http.MethodGet, "sys/auth", nil, &methods); err != nil {
		return err
	}
	if _, ok := methods.Data[kind+"/"]; ok {
		return nil
	}
	return s.Call(ctx, http.MethodPost, "sys/auth/"+kind, map[string]string{"type": kind}, nil)
}

// WritePolicy creates or replaces the ACL policy name.
func (s *Server) WritePolicy(ctx context.Context, name, hcl string) error {
	return s.Call(ctx, http.MethodPut, "sys/policies/acl/"+name, map[string]string{"policy": hcl}, nil)
}

// AppRoleOptions shape an AppRole role.
type AppRoleOptions struct {
	// Policies are the token policies of its logins.
	Policies []string
	// SecretIDTTL is its secret_id_ttl; 0 means no expiry.
	SecretIDTTL time.Duration
}

// WriteAppRole creates or replaces the AppRole role name, enabling AppRole
// auth first when needed.
func (s *Server) WriteAppRole(ctx context.Context, name string, o AppRoleOptions) error {
	if err := s.EnableAuth(ctx, "approle"); err != nil {
		return err
	}
	policies := o.Policies
	if policies == nil {
		policies = []string{}
	}
	return s.Call(ctx, http.MethodPost, "auth/approle/role/"+name, map[string]any{
		"token_policies": policies,
		"secret_id_ttl":  int64(o.SecretIDTTL / time.Second),
	}, nil)
}

// CreateAppRole writes the AppRole role name and returns its role ID and a
// freshly minted secret ID, the pair a brownfield credentials Secret holds.
func (s *Server) CreateAppRole(ctx context.Context, name string, o AppRoleOptions) (roleID, secretID string, err error) {
	if err := s.WriteAppRole(ctx, name, o); err != nil {
		return "", "", err
	}
	var role struct {
		Data struct {
			RoleID string `json:"role_id"`
		} `json:"data"`
	}
	if err := s.Call(ctx, http.MethodGet, "auth/approle/role/"+name+"/role-id", nil, &role); err != nil {
		return "", "", err
	}
	secretID, err = s.MintSecretID(ctx, name)
	if err != nil {
		return "", "", err
	}
	if role.Data.RoleID == "" {
		return "", "", fmt.Errorf("AppRole %s has an empty role ID", name)
	}
	return role.Data.RoleID, secretID, nil
}

// MintSecretID generates another secret ID of the AppRole role name.
func (s *Server) MintSecretID(ctx context.Context, name string) (string, error) {
	var minted struct {
		Data struct {
			SecretID string `json:"secret_id"`
		} `json:"data"`
	}
	if err := s.Call(ctx, http.MethodPost, "auth/approle/role/"+name+"/secret-id", nil, &minted); err != nil {
		return "", err
	}
	if minted.Data.SecretID == "" {
		return "", fmt.Errorf("AppRole %s minted an empty secret ID", name)
	}
	return minted.Data.SecretID, nil
}

// DestroySecretID revokes one secret ID of the AppRole role name, as a server
// administrator revoking a pair would.
func (s *Server) DestroySecretID(ctx context.Context, role, secretID string) error {
	return s.Call(ctx, http.MethodPost, "auth/approle/role/"+role+"/secret-id/destroy",
		map[string]string{"secret_id": secretID}, nil)
}

// DeleteAppRole removes the AppRole role name, e.g. to show an instance that
// is not provisioned.
func (s *Server) DeleteAppRole(ctx context.Context, name string) error {
	return s.Call(ctx, http.MethodDelete, "auth/approle/role/"+name, nil, nil)
}

// DisableUserLockout turns off user lockout on the auth method at path
// (approle, userpass, ldap). Vault locks a role ID out for 15 minutes after
// five failed logins in a row, refusing even a valid pair with 403; a test
// that probes stale pairs repeatedly can opt out of that server policy.
func (s *Server) DisableUserLockout(ctx context.Context, path string) error {
	return s.Call(ctx, http.MethodPost, "sys/auth/"+path+"/tune", map[string]any{
		"user_lockout_config": map[string]any{"lockout_disable": true},
	}, nil)
}
