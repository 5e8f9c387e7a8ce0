package openbao

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// MountExists reports whether a secrets engine is mounted at mount (GET
// /v1/sys/mounts/<mount>). Vault and OpenBao answer an absent mount with 400
// "No secret engine mount at <mount>/"; that and 404 mean false.
func (s *Session) MountExists(ctx context.Context, mount string) (bool, error) {
	err := s.c.call(ctx, "mount check", notLogin, s.token, http.MethodGet, "sys/mounts/"+mount, nil, nil)
	var e *Error
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &e) && (e.Status == http.StatusBadRequest || e.Status == http.StatusNotFound):
		return false, nil
	default:
		return false, err
	}
}

// RoleID reads the AppRole role's role ID (GET
// /v1/auth/approle/role/<role>/role-id). A missing role is NotFound, whether
// the server answers 404 or an empty body.
func (s *Session) RoleID(ctx context.Context, role string) (string, error) {
	const op = "role-id read"
	var out struct {
		Data struct {
			RoleID string `json:"role_id"`
		} `json:"data"`
	}
	if err := s.c.call(ctx, op, notLogin, s.token, http.MethodGet, "auth/approle/role/"+role+"/role-id", nil, &out); err != nil {
		return "", err
	}
	if out.Data.RoleID == "" {
		return "", &Error{Kind: NotFound, Op: op, Err: fmt.Errorf("AppRole %q: the answer holds no role ID", role)}
	}
	return out.Data.RoleID, nil
}

// MintSecretID generates a secret ID of the AppRole role (PUT
// /v1/auth/approle/role/<role>/secret-id, no body) and returns it with its
// TTL; 0 means it does not expire.
func (s *Session) MintSecretID(ctx context.Context, role string) (secretID string, ttl time.Duration, err error) {
	const op = "secret-id mint"
	var out struct {
		Data struct {
			SecretID    string      `json:"secret_id"`
			SecretIDTTL json.Number `json:"secret_id_ttl"`
		} `json:"data"`
	}
	if err := s.c.call(ctx, op, notLogin, s.token, http.MethodPut, "auth/approle/role/"+role+"/secret-id", nil, &out); err != nil {
		return "", 0, err
	}
	if out.Data.SecretID == "" {
		return "", 0, &Error{Kind: Other, Status: http.StatusOK, Op: op, Err: errors.New("the answer holds no secret ID")}
	}
	seconds, err := out.Data.SecretIDTTL.Int64()
	if err != nil || seconds < 0 {
		return "", 0, &Error{Kind: Other, Status: http.StatusOK, Op: op, Err: fmt.Errorf("secret_id_ttl %q is not a number of seconds", out.Data.SecretIDTTL)}
	}
	return out.Data.SecretID, time.Duration(seconds) * time.Second, nil
}

// CapabilitiesSelf lists the session token's capabilities on path (POST
// /v1/sys/capabilities-self).
func (s *Session) CapabilitiesSelf(ctx context.Context, path string) ([]string, error) {
	var out struct {
		Data *struct {
			Capabilities []string `json:"capabilities"`
		} `json:"data"`
		Capabilities []string `json:"capabilities"`
	}
	if err := s.c.call(ctx, "capabilities-self", notLogin, s.token, http.MethodPost, "sys/capabilities-self", map[string]string{"path": path}, &out); err != nil {
		return nil, err
	}
	if out.Data != nil && out.Data.Capabilities != nil {
		return out.Data.Capabilities, nil
	}
	return out.Capabilities, nil
}
