package openbao

import (
	"context"
	"errors"
	"net/http"

	"sigs.k8s.io/controller-runtime/pkg/log"
)

// Session is one login's token. End it when the pass is done, whatever
// happened in between.
type Session struct {
	c     *Client
	op    string
	token string
}

// loginAnswer is the part of a login answer a Session needs.
type loginAnswer struct {
	Auth *struct {
		ClientToken string `json:"client_token"`
	} `json:"auth"`
}

// KubernetesLogin logs in with a ServiceAccount token (PUT
// /v1/auth/kubernetes/login). A 403 is Forbidden, a 400 Invalid.
func (c *Client) KubernetesLogin(ctx context.Context, role, jwt string) (*Session, error) {
	return c.login(ctx, "kubernetes login", kubernetesLogin, "auth/kubernetes/login", map[string]string{"role": role, "jwt": jwt})
}

// AppRoleLogin logs in with an AppRole pair (PUT /v1/auth/approle/login).
// A 400 or 403 is Invalid: the pair is not (or no longer) valid.
func (c *Client) AppRoleLogin(ctx context.Context, roleID, secretID string) (*Session, error) {
	return c.login(ctx, "AppRole login", appRoleLogin, "auth/approle/login", map[string]string{"role_id": roleID, "secret_id": secretID})
}

func (c *Client) login(ctx context.Context, op string, kind loginKind, path string, body map[string]string) (*Session, error) {
	var out loginAnswer
	if err := c.call(ctx, op, kind, "", http.MethodPut, path, body, &out); err != nil {
		return nil, err
	}
	if out.Auth == nil || out.Auth.ClientToken == "" {
		return nil, &Error{Kind: Other, Status: http.StatusOK, Op: op, Err: errors.New("the answer holds no client token")}
	}
	return &Session{c: c, op: op, token: out.Auth.ClientToken}, nil
}

// End revokes the session's token (PUT /v1/auth/token/revoke-self). A
// failure is logged, never returned: the token expires on its own. Ending
// twice, or a nil session, does nothing.
func (s *Session) End(ctx context.Context) {
	if s == nil || s.token == "" {
		return
	}
	token := s.token
	s.token = ""
	if err := s.c.call(ctx, "revoke-self", notLogin, token, http.MethodPut, "auth/token/revoke-self", nil, nil); err != nil {
		log.FromContext(ctx).Error(err, "Revoking the OpenBao token failed", "login", s.op, "kind", KindOf(err).String())
	}
}
