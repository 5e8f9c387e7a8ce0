package openbao

import (
	"context"
	"errors"
	"net/http"
	"testing"
	"time"

	openbaotest "github.com/c5c3/openstack-operators/testsupport/openbao"
)

// TestManagedCalls runs the managed pass against a real server whose
// kubernetes auth reviews TokenRequest tokens on a real kube-apiserver.
func TestManagedCalls(t *testing.T) {
	const ns, instance = "openbao", "bao"
	m := openbaotest.StartManaged(t, ns, instance, 90*time.Minute)
	srv, k, jwt := m.Server, m.Kube, m.JWT
	ctx := context.Background()
	c := mustNew(t, Config{URL: srv.URL, CAPEM: srv.CAPEM})

	s, err := c.KubernetesLogin(ctx, "provisioner", jwt)
	if err != nil {
		t.Fatal(err)
	}
	if ok, err := s.MountExists(ctx, "barbican"); err != nil || !ok {
		t.Fatalf("MountExists(barbican) = %t, %v; want true", ok, err)
	}
	roleID, err := s.RoleID(ctx, "barbican")
	if err != nil || roleID == "" {
		t.Fatalf("RoleID = %q, %v", roleID, err)
	}
	secretID, ttl, err := s.MintSecretID(ctx, "barbican")
	if err != nil || secretID == "" {
		t.Fatalf("MintSecretID: %v", err)
	}
	if ttl != 90*time.Minute {
		t.Fatalf("minted TTL %s, want the role's secret_id_ttl 1h30m0s", ttl)
	}
	// The provisioner policy stops at these three paths.
	wantKind(t, mountErr(s.MountExists(ctx, "sys")), Forbidden, "mount check outside the policy")
	_, _, err = s.MintSecretID(ctx, "other")
	wantKind(t, err, Forbidden, "mint on another role")

	// The minted pair is what the probe logs in with.
	probe, err := c.AppRoleLogin(ctx, roleID, secretID)
	if err != nil {
		t.Fatalf("AppRole login with the minted pair: %v", err)
	}
	caps, err := probe.CapabilitiesSelf(ctx, "barbican/data/probe")
	if err != nil {
		t.Fatal(err)
	}
	if missing := MissingCapabilities(caps, RequiredCapabilities...); missing != nil {
		t.Fatalf("the minted pair lacks %v (has %v)", missing, caps)
	}
	// An AppRole token may not provision: 403 is Forbidden outside logins.
	wantKind(t, mountErr(probe.MountExists(ctx, "barbican")), Forbidden, "mount check with the AppRole token")
	_, _, err = probe.MintSecretID(ctx, "barbican")
	wantKind(t, err, Forbidden, "mint with the AppRole token")
	probe.End(ctx)

	t.Run("revoke-self revokes", func(t *testing.T) {
		token := s.token
		var self struct {
			Data struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		if err := srv.CallAs(ctx, token, http.MethodGet, "auth/token/lookup-self", nil, &self); err != nil || self.Data.ID != token {
			t.Fatalf("the session token before End: %v", err)
		}
		s.End(ctx)
		var apiErr *openbaotest.APIError
		err := srv.CallAs(ctx, token, http.MethodGet, "auth/token/lookup-self", nil, nil)
		if !errors.As(err, &apiErr) || apiErr.Status != http.StatusForbidden {
			t.Fatalf("the session token after End: got %v, want HTTP 403", err)
		}
		s.End(ctx) // a second End sends nothing and does not panic
	})

	t.Run("login refusals", func(t *testing.T) {
		apiAudience, err := k.RequestToken(ctx, ns, instance+"-provisioner", "", 10*time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.KubernetesLogin(ctx, "provisioner", apiAudience)
		if status := wantKind(t, err, Forbidden, "kubernetes login with the wrong audience"); status != http.StatusForbidden {
			t.Fatalf("status %d", status)
		}
		_, err = c.KubernetesLogin(ctx, "no-such-role", jwt)
		if status := wantKind(t, err, Invalid, "kubernetes login with an unknown role"); status != http.StatusBadRequest {
			t.Fatalf("status %d", status)
		}
		_, err = c.AppRoleLogin(ctx, roleID, "00000000-0000-0000-0000-000000000000")
		wantKind(t, err, Invalid, "AppRole login with a wrong secret ID")
	})

	t.Run("instance not provisioned", func(t *testing.T) {
		s, err := c.KubernetesLogin(ctx, "provisioner", jwt)
		if err != nil {
			t.Fatal(err)
		}
		defer s.End(ctx)
		if err := srv.DeleteAppRole(ctx, openbaotest.AppRole); err != nil {
			t.Fatal(err)
		}
		_, err = s.RoleID(ctx, "barbican")
		wantKind(t, err, NotFound, "RoleID of a deleted AppRole")
		if err := srv.DisableMount(ctx, openbaotest.KVMount); err != nil {
			t.Fatal(err)
		}
		if ok, err := s.MountExists(ctx, "barbican"); err != nil || ok {
			t.Fatalf("MountExists after unmounting = %t, %v; want false, nil", ok, err)
		}
	})
}

// mountErr keeps the error of a MountExists call.
func mountErr(_ bool, err error) error { return err }
