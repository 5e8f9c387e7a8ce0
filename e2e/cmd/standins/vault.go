package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/testsupport/openbao"
)

// vaultFlags describe the local OpenBao-compatible server of make run's
// Barbican: a brownfield store, as an existing server would be.
type vaultFlags struct {
	// dir holds its files; "" starts none.
	dir string
	// namespace receives the Secrets bao-approle and bao-ca.
	namespace string
}

// storePolicy grants what a brownfield AppRole needs on the mount.
const storePolicy = `path "barbican/data/*" { capabilities = ["create", "read", "update", "delete", "list"] }`

// startVault starts the server, sets it up as a brownfield store (KV v2
// mount barbican, AppRole barbican with the store policy), writes the
// AppRole pair and the CA into namespace and the server's URL to
// <dir>/url. The caller stops the server.
func startVault(ctx context.Context, c client.Client, v vaultFlags) (*openbao.Server, error) {
	if err := os.MkdirAll(v.dir, 0o700); err != nil {
		return nil, err
	}
	srv, err := openbao.Run(ctx, v.dir, openbao.Options{})
	if err != nil {
		if srv != nil {
			srv.Stop()
		}
		return nil, err
	}
	roleID, secretID, err := brownfield(ctx, srv)
	if err == nil {
		err = writeSecrets(ctx, c, v.namespace, map[string]map[string]string{
			"bao-approle": {"role-id": roleID, "secret-id": secretID},
			"bao-ca":      {"ca.crt": string(srv.CAPEM)},
		})
	}
	if err == nil {
		err = os.WriteFile(filepath.Join(v.dir, "url"), []byte(srv.URL+"\n"), 0o600)
	}
	if err != nil {
		srv.Stop()
		return nil, err
	}
	return srv, nil
}

func brownfield(ctx context.Context, srv *openbao.Server) (roleID, secretID string, err error) {
	if err := srv.EnableKV2(ctx, "barbican"); err != nil {
		return "", "", err
	}
	if err := srv.WritePolicy(ctx, "barbican-store", storePolicy); err != nil {
		return "", "", err
	}
	return srv.CreateAppRole(ctx, "barbican", openbao.AppRoleOptions{Policies: []string{"barbican-store"}})
}

// writeSecrets creates or replaces the Secrets in namespace (the server is
// new on every start, and so is its pair).
func writeSecrets(ctx context.Context, c client.Client, namespace string, secrets map[string]map[string]string) error {
	for name, data := range secrets {
		s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name}, StringData: data}
		err := c.Create(ctx, s)
		if apierrors.IsAlreadyExists(err) {
			var live corev1.Secret
			if err = c.Get(ctx, client.ObjectKeyFromObject(s), &live); err == nil {
				live.Data, live.StringData = nil, data
				err = c.Update(ctx, &live)
			}
		}
		if err != nil {
			return fmt.Errorf("writing Secret %s/%s: %w", namespace, name, err)
		}
	}
	return nil
}
