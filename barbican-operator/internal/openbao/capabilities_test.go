package openbao

import (
	"errors"
	"fmt"
	"net/http"
	"reflect"
	"testing"
)

func TestMissingCapabilities(t *testing.T) {
	for _, tc := range []struct {
		name string
		have []string
		want []string
	}{
		{"all five", []string{"create", "delete", "list", "read", "update"}, nil},
		{"root covers all", []string{"root"}, nil},
		{"deny", []string{"deny"}, RequiredCapabilities},
		{"none", nil, RequiredCapabilities},
		{"read-only", []string{"list", "read"}, []string{"create", "update", "delete"}},
		{"extra ones do not help", []string{"sudo", "patch", "create"}, []string{"read", "update", "delete", "list"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := MissingCapabilities(tc.have, RequiredCapabilities...); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("MissingCapabilities(%v) = %v, want %v", tc.have, got, tc.want)
			}
		})
	}
	if want := []string{"create", "read", "update", "delete", "list"}; !reflect.DeepEqual(RequiredCapabilities, want) {
		t.Fatalf("RequiredCapabilities = %v, want %v", RequiredCapabilities, want)
	}
}

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		status int
		login  loginKind
		want   Kind
	}{
		{http.StatusForbidden, notLogin, Forbidden},
		{http.StatusForbidden, kubernetesLogin, Forbidden},
		{http.StatusForbidden, appRoleLogin, Invalid},
		{http.StatusBadRequest, kubernetesLogin, Invalid},
		{http.StatusBadRequest, appRoleLogin, Invalid},
		{http.StatusBadRequest, notLogin, Other},
		{http.StatusNotFound, notLogin, NotFound},
		{http.StatusServiceUnavailable, notLogin, Unreachable},
		{http.StatusBadGateway, appRoleLogin, Unreachable},
		{http.StatusInternalServerError, notLogin, Other},
		{http.StatusTemporaryRedirect, notLogin, Other},
	} {
		if got := classify(tc.status, tc.login, nil); got != tc.want {
			t.Errorf("classify(%d, %d) = %s, want %s", tc.status, tc.login, got, tc.want)
		}
	}
	vault113 := []string{"invalid secret id"}
	if got := classify(http.StatusInternalServerError, appRoleLogin, vault113); got != Invalid {
		t.Errorf("Vault 1.13's refused secret ID on an AppRole login: %s, want Invalid", got)
	}
	for _, login := range []loginKind{notLogin, kubernetesLogin} {
		if got := classify(http.StatusInternalServerError, login, vault113); got != Other {
			t.Errorf("500 \"invalid secret id\" outside an AppRole login: %s, want Other", got)
		}
	}
	if got := classify(http.StatusInternalServerError, appRoleLogin, []string{"internal error"}); got != Other {
		t.Errorf("another 500 on an AppRole login: %s, want Other", got)
	}
}

func TestKindOf(t *testing.T) {
	wrapped := fmt.Errorf("store pass: %w", &Error{Kind: NotFound, Op: "role-id read", Err: errors.New("x")})
	if KindOf(wrapped) != NotFound {
		t.Fatalf("KindOf(wrapped) = %s", KindOf(wrapped))
	}
	if KindOf(errors.New("other origin")) != Other || KindOf(nil) != Other {
		t.Fatal("KindOf of a foreign error or nil is not Other")
	}
}
