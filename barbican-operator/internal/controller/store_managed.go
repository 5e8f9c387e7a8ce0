package controller

import (
	"bytes"
	"context"
	"fmt"
	"time"

	authv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/openbao"
	"github.com/c5c3/openstack-operators/common/framework/secrets"
)

// The shape of a managed instance (barbican-api.md §2.2).
const (
	// ManagedRole is the AppRole barbican logs in with.
	ManagedRole = "barbican"
	// ProvisionerRole is the Kubernetes auth role of the provisioner ServiceAccount.
	ProvisionerRole = "provisioner"
	// provisionerTokenSeconds is the TokenRequest's lifetime.
	provisionerTokenSeconds = 600
)

// InstanceGVK is the OpenBaoCluster kind. It has no served Go module, so
// the operator reads it unstructured, and only status.conditions.
var InstanceGVK = schema.GroupVersionKind{Group: "openbao.org", Version: "v1alpha1", Kind: "OpenBaoCluster"}

// ProvisionerName is the ServiceAccount the operator requests a token for:
// <instance>-provisioner.
func ProvisionerName(instance string) string { return instance + "-provisioner" }

// managed provisions a managed store: the instance is Available and its CA
// published, a TokenRequest for the provisioner logs in through Kubernetes
// auth, the mount and the AppRole exist; then the held secret ID is kept,
// probed or re-minted (§2.4). The provisioner's token is revoked at the end
// of the session, whatever happened.
func (p *storePass) managed(ctx context.Context) (time.Duration, error) {
	st := p.store
	instance := st.Spec.OpenBao.InstanceRef.Name
	ca, wait, err := p.instanceReady(ctx, instance)
	if err != nil || wait != "" {
		if err == nil {
			p.credentialsWaitOnProvisioning(wait)
		}
		return requeueStoreWait, err
	}
	jwt, err := p.provisionerToken(ctx, instance)
	if err != nil {
		if apierrors.IsNotFound(err) {
			p.credentialsWaitOnProvisioning(barbicanv1.ReasonWaitingForInstance)
			return p.fail(barbicanv1.ConditionProvisioningReady, barbicanv1.ReasonWaitingForInstance,
				fmt.Sprintf("ServiceAccount %s of OpenBaoCluster %s does not exist yet", ProvisionerName(instance), instance))
		}
		if apierrors.IsForbidden(err) {
			p.credentialsWaitOnProvisioning(barbicanv1.ReasonProvisioningDenied)
			return p.fail(barbicanv1.ConditionProvisioningReady, barbicanv1.ReasonProvisioningDenied,
				fmt.Sprintf("TokenRequest for ServiceAccount %s refused: %v (the chart's rbac.secretStoreNamespaces must list %s)", ProvisionerName(instance), err, st.Namespace))
		}
		return 0, fmt.Errorf("requesting a token for ServiceAccount %s: %w", ProvisionerName(instance), err)
	}
	c, err := p.client(StoreURL(st), ca, "")
	if err != nil {
		p.credentialsWaitOnProvisioning(barbicanv1.ReasonWaitingForInstanceTLS)
		return p.fail(barbicanv1.ConditionProvisioningReady, barbicanv1.ReasonWaitingForInstanceTLS,
			fmt.Sprintf("Secret %s: %v", InstanceCASecretName(instance), err))
	}
	sess, err := c.KubernetesLogin(ctx, ProvisionerRole, jwt)
	if err != nil {
		// §2.5: a 403 is a refusal, anything else is unreachable.
		reason := barbicanv1.ReasonOpenBaoUnreachable
		if openbao.KindOf(err) == openbao.Forbidden {
			reason = barbicanv1.ReasonProvisioningDenied
		}
		p.credentialsWaitOnProvisioning(reason)
		return p.fail(barbicanv1.ConditionProvisioningReady, reason, err.Error())
	}
	defer sess.End(ctx)
	roleID, reason, msg := p.provisioned(ctx, sess)
	if reason != "" {
		p.credentialsWaitOnProvisioning(reason)
		return p.fail(barbicanv1.ConditionProvisioningReady, reason, msg)
	}
	p.setTrue(barbicanv1.ConditionProvisioningReady, barbicanv1.ReasonProvisioned,
		fmt.Sprintf("OpenBaoCluster %s holds the KV mount %s and the AppRole %s", instance, barbicanv1.DefaultKVMountpoint, ManagedRole))
	return p.credentials(ctx, c, sess, roleID)
}

// instanceReady reads the OpenBaoCluster and its CA Secret (a missing
// provisioner ServiceAccount shows in the TokenRequest); wait is the ProvisioningReady reason to wait with, "" when
// all are there.
func (p *storePass) instanceReady(ctx context.Context, instance string) (ca []byte, wait string, err error) {
	ns := p.store.Namespace
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(InstanceGVK)
	err = p.r.Client.Get(ctx, client.ObjectKey{Namespace: ns, Name: instance}, u)
	switch {
	case apierrors.IsNotFound(err) || meta.IsNoMatchError(err):
		p.setFalse(barbicanv1.ConditionProvisioningReady, barbicanv1.ReasonInstanceNotFound,
			fmt.Sprintf("OpenBaoCluster %s not found in namespace %s", instance, ns), true)
		return nil, barbicanv1.ReasonInstanceNotFound, nil
	case err != nil:
		return nil, "", fmt.Errorf("reading OpenBaoCluster %s: %w", instance, err)
	}
	if ok, msg := available(u); !ok {
		p.setFalse(barbicanv1.ConditionProvisioningReady, barbicanv1.ReasonWaitingForInstance,
			fmt.Sprintf("OpenBaoCluster %s is not Available: %s", instance, msg), true)
		return nil, barbicanv1.ReasonWaitingForInstance, nil
	}
	name := InstanceCASecretName(instance)
	sec, msg, err := secrets.Usable(ctx, p.r.Client, ns, name, barbicanv1.KeyCACert)
	if err != nil {
		return nil, "", fmt.Errorf("reading CA Secret %s: %w", name, err)
	}
	if sec == nil {
		p.setFalse(barbicanv1.ConditionProvisioningReady, barbicanv1.ReasonWaitingForInstanceTLS, msg, true)
		return nil, barbicanv1.ReasonWaitingForInstanceTLS, nil
	}
	if p.target.Remote() {
		// The API pods mount the CA on the target cluster.
		remote, msg, err := secrets.Usable(ctx, p.target.Client, ns, name, barbicanv1.KeyCACert)
		if err != nil {
			return nil, "", fmt.Errorf("reading CA Secret %s on target cluster %s: %w", name, p.target.Name, err)
		}
		if remote == nil {
			p.setFalse(barbicanv1.ConditionProvisioningReady, barbicanv1.ReasonWaitingForInstanceTLS, fmt.Sprintf(
				"on target cluster %s, where the Barbican's pods mount it: %s (copy %s there, for example with an ExternalSecret)", p.target.Name, msg, name), true)
			return nil, barbicanv1.ReasonWaitingForInstanceTLS, nil
		}
		if !bytes.Equal(remote.Data[barbicanv1.KeyCACert], sec.Data[barbicanv1.KeyCACert]) {
			p.setFalse(barbicanv1.ConditionProvisioningReady, barbicanv1.ReasonWaitingForInstanceTLS, fmt.Sprintf(
				"Secret %s on target cluster %s, where the Barbican's pods mount it, holds another CA than the instance's", name, p.target.Name), true)
			return nil, barbicanv1.ReasonWaitingForInstanceTLS, nil
		}
	}
	return sec.Data[barbicanv1.KeyCACert], "", nil
}

// available reads the instance's Available condition.
func available(u *unstructured.Unstructured) (bool, string) {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, ok := c.(map[string]any)
		if !ok || m["type"] != "Available" {
			continue
		}
		msg, _ := m["message"].(string)
		return m["status"] == "True", msg
	}
	return false, "it reports no Available condition yet"
}

// provisionerToken requests a token for <instance>-provisioner with the
// instance as its audience.
func (p *storePass) provisionerToken(ctx context.Context, instance string) (string, error) {
	sa := &corev1.ServiceAccount{}
	sa.Name, sa.Namespace = ProvisionerName(instance), p.store.Namespace
	exp := int64(provisionerTokenSeconds)
	tr := &authv1.TokenRequest{Spec: authv1.TokenRequestSpec{Audiences: []string{instance}, ExpirationSeconds: &exp}}
	if err := p.r.Client.SubResource("token").Create(ctx, sa, tr); err != nil {
		return "", err
	}
	return tr.Status.Token, nil
}

// provisioned checks the mount and reads the AppRole's role ID; reason is
// the ProvisioningReady failure, "" when both are there.
func (p *storePass) provisioned(ctx context.Context, sess *openbao.Session) (roleID, reason, msg string) {
	instance := p.store.Spec.OpenBao.InstanceRef.Name
	ok, err := sess.MountExists(ctx, barbicanv1.DefaultKVMountpoint)
	if err != nil {
		return "", deniedOr(err), err.Error()
	}
	if !ok {
		return "", barbicanv1.ReasonInstanceNotProvisioned, fmt.Sprintf(
			"OpenBaoCluster %s has no KV mount %s: its self-init requests barbican_kv, approle_auth and barbican_approle_role must run", instance, barbicanv1.DefaultKVMountpoint)
	}
	roleID, err = sess.RoleID(ctx, ManagedRole)
	if openbao.KindOf(err) == openbao.NotFound {
		return "", barbicanv1.ReasonInstanceNotProvisioned, fmt.Sprintf(
			"OpenBaoCluster %s has no AppRole %s: its self-init requests barbican_kv, approle_auth and barbican_approle_role must run", instance, ManagedRole)
	}
	if err != nil {
		return "", deniedOr(err), err.Error()
	}
	return roleID, "", ""
}

// credentialsWaitOnProvisioning holds CredentialsReady False while the
// instance is not provisioned: nothing can be minted or probed.
func (p *storePass) credentialsWaitOnProvisioning(reason string) {
	if reason == barbicanv1.ReasonProvisioningDenied || reason == barbicanv1.ReasonOpenBaoUnreachable {
		p.setFalse(barbicanv1.ConditionCredentialsReady, reason, "the provisioner could not reach or log in to the instance; see ProvisioningReady", false)
		return
	}
	p.setFalse(barbicanv1.ConditionCredentialsReady, barbicanv1.ReasonWaitingForCredentials, "waiting for ProvisioningReady ("+reason+")", false)
}
