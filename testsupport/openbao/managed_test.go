package openbao

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestConfigureManagedAgainstARealKubeAPIServer(t *testing.T) {
	const ns, instance = "openbao", "bao"
	m := StartManaged(t, ns, instance, 2*time.Hour)
	s, k, jwt, opts := m.Server, m.Kube, m.JWT, m.Options
	ctx := context.Background()

	token := kubernetesLogin(t, s, KubernetesRole, jwt)

	// The provisioner token does exactly the three provisioning calls.
	var mount struct {
		Data struct {
			Type    string            `json:"type"`
			Options map[string]string `json:"options"`
		} `json:"data"`
	}
	if err := s.CallAs(ctx, token, http.MethodGet, "sys/mounts/"+KVMount, nil, &mount); err != nil {
		t.Fatalf("reading the mount: %v", err)
	}
	if mount.Data.Type != "kv" || mount.Data.Options["version"] != "2" {
		t.Fatalf("mount %s is %s %v, want kv version 2", KVMount, mount.Data.Type, mount.Data.Options)
	}
	var role struct {
		Data struct {
			RoleID string `json:"role_id"`
		} `json:"data"`
	}
	if err := s.CallAs(ctx, token, http.MethodGet, "auth/approle/role/"+AppRole+"/role-id", nil, &role); err != nil || role.Data.RoleID == "" {
		t.Fatalf("reading the role ID: %q, %v", role.Data.RoleID, err)
	}
	var minted struct {
		Data struct {
			SecretID    string `json:"secret_id"`
			SecretIDTTL int    `json:"secret_id_ttl"`
		} `json:"data"`
	}
	if err := s.CallAs(ctx, token, http.MethodPut, "auth/approle/role/"+AppRole+"/secret-id", nil, &minted); err != nil || minted.Data.SecretID == "" {
		t.Fatalf("minting a secret ID: %v", err)
	}
	if minted.Data.SecretIDTTL != 7200 {
		t.Fatalf("minted secret_id_ttl = %d, want 7200", minted.Data.SecretIDTTL)
	}
	for _, denied := range []struct{ method, path string }{
		{http.MethodGet, "sys/mounts"},
		{http.MethodGet, "sys/mounts/sys"},
		{http.MethodGet, "auth/approle/role/" + AppRole},
		{http.MethodPut, "auth/approle/role/" + AppRole + "/custom-secret-id"},
		{http.MethodGet, KVMount + "/data/x"},
	} {
		assertStatus(t, s.CallAs(ctx, token, denied.method, denied.path, nil, nil), http.StatusForbidden, denied.method+" "+denied.path)
	}

	// The minted pair logs in, and its token has Barbican's five capabilities.
	appToken := appRoleLogin(t, s, role.Data.RoleID, minted.Data.SecretID)
	if caps := strings.Join(capabilities(t, s, appToken, KVMount+"/data/probe"), ","); caps != "create,delete,list,read,update" {
		t.Fatalf("capabilities of the AppRole token: %s", caps)
	}
	if caps := strings.Join(capabilities(t, s, appToken, KVMount+"/metadata/probe"), ","); caps != "delete,list,read" {
		t.Fatalf("capabilities of the AppRole token on metadata: %s", caps)
	}

	t.Run("the role binds audience, ServiceAccount and role name", func(t *testing.T) {
		apiAudience, err := k.RequestToken(ctx, ns, instance+"-provisioner", "", 10*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		assertStatus(t, login(s, KubernetesRole, apiAudience), http.StatusForbidden, "token without the instance audience")
		if err := k.CreateServiceAccount(ctx, ns, "intruder"); err != nil {
			t.Fatal(err)
		}
		other, err := k.RequestToken(ctx, ns, "intruder", instance, 10*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		assertStatus(t, login(s, KubernetesRole, other), http.StatusForbidden, "another ServiceAccount")
		assertStatus(t, login(s, "no-such-role", jwt), http.StatusBadRequest, "unknown role")
	})

	t.Run("without a reviewer JWT the instance-audience token cannot review itself", func(t *testing.T) {
		cfg := map[string]any{"kubernetes_host": opts.KubeHost, "kubernetes_ca_cert": string(opts.KubeCAPEM), "disable_local_ca_jwt": true}
		if err := s.Call(ctx, http.MethodPost, "auth/kubernetes/config", cfg, nil); err != nil {
			t.Fatal(err)
		}
		assertStatus(t, login(s, KubernetesRole, jwt), http.StatusForbidden, "login reviewed with its own JWT")
	})
}

func kubernetesLogin(t *testing.T, s *Server, role, jwt string) string {
	t.Helper()
	var out struct {
		Auth struct {
			ClientToken string   `json:"client_token"`
			Policies    []string `json:"token_policies"`
		} `json:"auth"`
	}
	in := map[string]string{"role": role, "jwt": jwt}
	if err := s.CallAs(context.Background(), "", http.MethodPut, "auth/kubernetes/login", in, &out); err != nil {
		t.Fatalf("kubernetes login: %v", err)
	}
	if out.Auth.ClientToken == "" || !strings.Contains(strings.Join(out.Auth.Policies, ","), ProvisionerPolicy) {
		t.Fatalf("kubernetes login returned token set %t, policies %v", out.Auth.ClientToken != "", out.Auth.Policies)
	}
	return out.Auth.ClientToken
}

func login(s *Server, role, jwt string) error {
	return s.CallAs(context.Background(), "", http.MethodPut, "auth/kubernetes/login", map[string]string{"role": role, "jwt": jwt}, nil)
}

func assertStatus(t *testing.T, err error, want int, what string) {
	t.Helper()
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != want {
		t.Fatalf("%s: got %v, want HTTP %d", what, err, want)
	}
}
