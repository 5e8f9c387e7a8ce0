package controller

import (
	"context"
	"fmt"
	"strings"
	"time"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/openbao"
	"github.com/c5c3/openstack-operators/common/framework/secrets"
)

// brownfield checks a given AppRole on every pass: an AppRole login with the
// credentials Secret's pair, then capabilities-self on <mount>/data/probe
// (all five of create, read, update, delete, list, or root). The namespace
// header goes with every call when spec.openBao.namespace is set.
func (p *storePass) brownfield(ctx context.Context) (time.Duration, error) {
	st := p.store
	srv := st.Spec.OpenBao.Server
	creds, msg, err := secrets.Usable(ctx, p.target.Client, st.Namespace, srv.CredentialsSecretRef.Name, barbicanv1.KeyRoleID, barbicanv1.KeySecretID)
	if err != nil {
		return 0, fmt.Errorf("reading credentials Secret %s: %w", srv.CredentialsSecretRef.Name, err)
	}
	if creds == nil {
		return p.fail(barbicanv1.ConditionCredentialsReady, barbicanv1.ReasonWaitingForCredentials, msg)
	}
	var ca []byte
	if ref := srv.CABundleSecretRef; ref != nil {
		sec, msg, err := secrets.Usable(ctx, p.target.Client, st.Namespace, ref.Name, barbicanv1.KeyCACert)
		if err != nil {
			return 0, fmt.Errorf("reading CA bundle Secret %s: %w", ref.Name, err)
		}
		if sec == nil {
			return p.fail(barbicanv1.ConditionCredentialsReady, barbicanv1.ReasonWaitingForCredentials, msg)
		}
		ca = sec.Data[barbicanv1.KeyCACert]
	}
	c, err := p.client(srv.URL, ca, st.Spec.OpenBao.Namespace)
	if err != nil {
		return p.fail(barbicanv1.ConditionCredentialsReady, barbicanv1.ReasonOpenBaoUnreachable, err.Error())
	}
	sess, err := c.AppRoleLogin(ctx, string(creds.Data[barbicanv1.KeyRoleID]), string(creds.Data[barbicanv1.KeySecretID]))
	if err != nil {
		return p.loginFailed(err, srv.CredentialsSecretRef.Name)
	}
	defer sess.End(ctx)
	path := st.Spec.OpenBao.EffectiveKVMountpoint() + "/data/probe"
	have, err := sess.CapabilitiesSelf(ctx, path)
	if err != nil {
		reason := barbicanv1.ReasonOpenBaoUnreachable
		if openbao.KindOf(err) == openbao.Forbidden {
			reason = barbicanv1.ReasonInsufficientCapabilities
		}
		return p.fail(barbicanv1.ConditionCredentialsReady, reason, err.Error())
	}
	if missing := openbao.MissingCapabilities(have, openbao.RequiredCapabilities...); len(missing) > 0 {
		return p.fail(barbicanv1.ConditionCredentialsReady, barbicanv1.ReasonInsufficientCapabilities, fmt.Sprintf(
			"the AppRole's token lacks %s on %s (has: %s); its policy needs create, read, update, delete and list on %s/data/*",
			strings.Join(missing, ", "), path, strings.Join(have, ", "), st.Spec.OpenBao.EffectiveKVMountpoint()))
	}
	p.validated(creds.Data[barbicanv1.KeyRoleID], creds.Data[barbicanv1.KeySecretID])
	p.setTrue(barbicanv1.ConditionCredentialsReady, barbicanv1.ReasonCredentialsAvailable,
		fmt.Sprintf("AppRole login with Secret %s accepted; the token holds every capability on %s", srv.CredentialsSecretRef.Name, path))
	return revalidateStore, nil
}

// loginFailed maps a refused AppRole login to InvalidCredentials and any
// other failure to OpenBaoUnreachable.
func (p *storePass) loginFailed(err error, secret string) (time.Duration, error) {
	if openbao.KindOf(err) == openbao.Invalid {
		return p.fail(barbicanv1.ConditionCredentialsReady, barbicanv1.ReasonInvalidCredentials,
			fmt.Sprintf("the server refused the AppRole pair of Secret %s: %v", secret, err))
	}
	return p.fail(barbicanv1.ConditionCredentialsReady, barbicanv1.ReasonOpenBaoUnreachable, err.Error())
}

// deniedOr maps a failed provisioner call: 403 is ProvisioningDenied,
// anything else OpenBaoUnreachable.
func deniedOr(err error) string {
	if openbao.KindOf(err) == openbao.Forbidden {
		return barbicanv1.ReasonProvisioningDenied
	}
	return barbicanv1.ReasonOpenBaoUnreachable
}
