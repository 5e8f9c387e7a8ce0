package openbao

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// Kube is the kube-apiserver side of Vault's kubernetes auth.
//
// Vault checks a login JWT with a TokenReview, sent with token_reviewer_jwt
// as bearer or, when none is configured, with the login JWT itself. A token
// issued for audience <instance> is not one the kube-apiserver accepts as a
// bearer (it only takes its own audience), so the managed set-up configures a
// reviewer: a ServiceAccount bound to the bootstrap ClusterRole
// system:auth-delegator (the envtest apiserver runs with RBAC), whose token
// carries the apiserver's audience. A managed OpenBao pod does the same with
// its own ServiceAccount token.
type Kube struct {
	// Host is the kube-apiserver URL.
	Host string
	// CAPEM is the CA of the kube-apiserver's serving certificate.
	CAPEM []byte
	// Clientset talks to the kube-apiserver with the test's admin identity.
	Clientset kubernetes.Interface
}

// NewKube wraps the rest.Config of a running kube-apiserver, e.g. the one
// testenv.Start returns.
func NewKube(cfg *rest.Config) (*Kube, error) {
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	ca := cfg.CAData
	if len(ca) == 0 && cfg.CAFile != "" {
		// A kubeconfig's CA (the e2e control plane) is a file.
		if ca, err = os.ReadFile(cfg.CAFile); err != nil {
			return nil, err
		}
	}
	if len(ca) == 0 {
		return nil, fmt.Errorf("the rest.Config carries no CA (CAData or CAFile)")
	}
	return &Kube{Host: cfg.Host, CAPEM: ca, Clientset: cs}, nil
}

// StartKube starts a bare envtest kube-apiserver and etcd (no CRDs) with the
// binaries hack/tools.sh builds, stopped when the test ends.
func StartKube(t testing.TB) *Kube {
	t.Helper()
	assets, err := testenv.Assets()
	if err != nil {
		t.Fatalf("envtest binaries: %v", err)
	}
	env := &envtest.Environment{BinaryAssetsDirectory: assets}
	cfg, err := env.Start()
	if err != nil {
		t.Fatalf("starting envtest: %v", err)
	}
	t.Cleanup(func() {
		if err := env.Stop(); err != nil {
			t.Errorf("stopping envtest: %v", err)
		}
	})
	k, err := NewKube(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// CreateServiceAccount creates the ServiceAccount namespace/name (and the
// namespace) unless it exists.
func (k *Kube) CreateServiceAccount(ctx context.Context, namespace, name string) error {
	_, err := k.Clientset.CoreV1().Namespaces().Create(ctx,
		&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating namespace %s: %w", namespace, err)
	}
	_, err = k.Clientset.CoreV1().ServiceAccounts(namespace).Create(ctx,
		&corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("creating ServiceAccount %s/%s: %w", namespace, name, err)
	}
	return nil
}

// RequestToken issues a token of the ServiceAccount through the TokenRequest
// API, as the operator does; audience "" means the apiserver's own.
func (k *Kube) RequestToken(ctx context.Context, namespace, serviceAccount, audience string, expiry time.Duration) (string, error) {
	seconds := int64(expiry / time.Second)
	req := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: &seconds}}
	if audience != "" {
		req.Spec.Audiences = []string{audience}
	}
	out, err := k.Clientset.CoreV1().ServiceAccounts(namespace).CreateToken(ctx, serviceAccount, req, metav1.CreateOptions{})
	if err != nil {
		return "", fmt.Errorf("requesting a token of %s/%s: %w", namespace, serviceAccount, err)
	}
	return out.Status.Token, nil
}

// ReviewerJWT creates the ServiceAccount namespace/name, lets it create
// TokenReviews (ClusterRoleBinding to system:auth-delegator) and returns a
// one-hour token of it with the apiserver's audience: Vault's
// token_reviewer_jwt.
func (k *Kube) ReviewerJWT(ctx context.Context, namespace, name string) (string, error) {
	if err := k.CreateServiceAccount(ctx, namespace, name); err != nil {
		return "", err
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: namespace + "-" + name + "-auth-delegator"},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: "system:auth-delegator"},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Namespace: namespace, Name: name}},
	}
	_, err := k.Clientset.RbacV1().ClusterRoleBindings().Create(ctx, binding, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return "", fmt.Errorf("binding %s/%s to system:auth-delegator: %w", namespace, name, err)
	}
	return k.RequestToken(ctx, namespace, name, "", time.Hour)
}

// ManagedOptions prepares the kubernetes side of a managed instance in
// namespace: a reviewer ServiceAccount named like the instance (the OpenBao
// server's own), and options for ConfigureManaged pointing at this apiserver.
// It does not create <instance>-provisioner: whether that ServiceAccount
// exists is the test's choice (CreateServiceAccount).
func (k *Kube) ManagedOptions(ctx context.Context, namespace, instance string, secretIDTTL time.Duration) (ManagedOptions, error) {
	jwt, err := k.ReviewerJWT(ctx, namespace, instance)
	if err != nil {
		return ManagedOptions{}, err
	}
	return ManagedOptions{
		Instance:    instance,
		Namespace:   namespace,
		KubeHost:    k.Host,
		KubeCAPEM:   k.CAPEM,
		ReviewerJWT: jwt,
		SecretIDTTL: secretIDTTL,
	}, nil
}

// Managed is a server set up as a managed instance on a real
// kube-apiserver (StartManaged).
type Managed struct {
	Server  *Server
	Kube    *Kube
	Options ManagedOptions
	// JWT is a provisioner token for the instance's audience.
	JWT string
}

// StartManaged starts a kube-apiserver and a server set up as the managed
// instance in namespace (secret IDs living secretIDTTL) and creates the
// instance's provisioner ServiceAccount.
func StartManaged(t testing.TB, namespace, instance string, secretIDTTL time.Duration) Managed {
	t.Helper()
	m := Managed{Kube: StartKube(t), Server: Start(t)}
	ctx := context.Background()
	var err error
	m.Options, err = m.Kube.ManagedOptions(ctx, namespace, instance, secretIDTTL)
	if err == nil {
		err = m.Server.ConfigureManaged(ctx, m.Options)
	}
	if err == nil {
		err = m.Kube.CreateServiceAccount(ctx, namespace, instance+"-provisioner")
	}
	if err == nil {
		m.JWT, err = m.Kube.RequestToken(ctx, namespace, instance+"-provisioner", instance, 10*time.Minute)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m
}
