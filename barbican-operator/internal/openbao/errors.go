package openbao

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/openbao/openbao/api/v2"
)

// Kind is what a failed call means to the store controller.
type Kind int

const (
	// Other is any failure not named below (a 5xx other than 502/503/504, an
	// undecodable answer, a redirect, a 400 outside a login).
	Other Kind = iota
	// Unreachable is no answer (connection refused, TLS verification failed,
	// timeout) or 502/503/504 (e.g. a sealed server).
	Unreachable
	// Forbidden is HTTP 403 (for an AppRole login see Invalid).
	Forbidden
	// Invalid is a login that refused its credentials: 400 on any login, 403
	// too on an AppRole login (and Vault 1.13's 500 "invalid secret id").
	Invalid
	// NotFound is HTTP 404, or a role-id read that answered without a role ID.
	NotFound
)

// String names the kind for logs.
func (k Kind) String() string {
	switch k {
	case Unreachable:
		return "Unreachable"
	case Forbidden:
		return "Forbidden"
	case Invalid:
		return "Invalid"
	case NotFound:
		return "NotFound"
	default:
		return "Other"
	}
}

// Error is a failed call.
type Error struct {
	// Kind classifies the failure.
	Kind Kind
	// Status is the HTTP status, 0 when the server did not answer.
	Status int
	// Op names the call, e.g. "kubernetes login".
	Op string
	// Err is the underlying error.
	Err error
}

// Error gives the call, the status and the server's messages on one line.
func (e *Error) Error() string {
	var respErr *api.ResponseError
	switch {
	case e.Status != 0 && errors.As(e.Err, &respErr) && len(respErr.Errors) > 0:
		return fmt.Sprintf("OpenBao %s: HTTP %d: %s", e.Op, e.Status, strings.Join(respErr.Errors, "; "))
	case e.Status != 0:
		return fmt.Sprintf("OpenBao %s: HTTP %d: %v", e.Op, e.Status, e.Err)
	default:
		return fmt.Sprintf("OpenBao %s: %v", e.Op, e.Err)
	}
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// KindOf returns the Kind of the first *Error in err's chain, and Other for
// nil or an error of another origin.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Other
}

// loginKind selects how a call's 400 and 403 are read.
type loginKind int

const (
	notLogin loginKind = iota
	// kubernetesLogin: 400 is Invalid, 403 Forbidden (denied provisioning).
	kubernetesLogin
	// appRoleLogin: 400 and 403 both say the pair is not valid.
	appRoleLogin
)

// classify maps an HTTP status (and, for one server defect, the server's
// messages) to a Kind.
func classify(status int, login loginKind, messages []string) Kind {
	switch {
	case login == appRoleLogin && vault113RefusedSecretID(status, messages):
		return Invalid
	case status == http.StatusBadRequest && login != notLogin:
		return Invalid
	case status == http.StatusForbidden && login == appRoleLogin:
		return Invalid
	case status == http.StatusForbidden:
		return Forbidden
	case status == http.StatusNotFound:
		return NotFound
	case status == http.StatusBadGateway, status == http.StatusServiceUnavailable, status == http.StatusGatewayTimeout:
		return Unreachable
	default:
		return Other
	}
}

// vault113RefusedSecretID recognises HashiCorp Vault 1.13's answer to an
// unknown, destroyed or expired secret ID: the login refuses the credentials
// but the server wraps that refusal into HTTP 500 "invalid secret id" (later
// Vault releases and OpenBao answer 400). Nothing else answers that way.
func vault113RefusedSecretID(status int, messages []string) bool {
	return status == http.StatusInternalServerError && len(messages) == 1 && messages[0] == "invalid secret id"
}
