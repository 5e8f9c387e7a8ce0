package controller

import (
	"context"
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/openbao"
	"github.com/c5c3/openstack-operators/common/framework/apply"
)

// reactiveAfter is the age below which a refused pair is reported
// (InvalidCredentials) instead of replaced: a fresh secret ID the server
// refuses points at the server, and minting more would not help.
const reactiveAfter = 10 * time.Minute

// held is the pair in <store>-approle and what its annotations say.
type held struct {
	roleID, secretID string
	mintedAt         time.Time
	ttl              time.Duration
}

// credentials keeps, probes or re-mints the secret ID in <store>-approle
// (barbican-api.md §2.4 step 2) and requeues at two thirds of its TTL.
func (p *storePass) credentials(ctx context.Context, c *openbao.Client, sess *openbao.Session, roleID string) (time.Duration, error) {
	h, why, err := p.held(ctx)
	if err != nil {
		return 0, err
	}
	now := p.r.now()
	switch {
	case why != "":
		return p.mint(ctx, c, sess, roleID, "", why)
	case h.ttl > 0 && now.Sub(h.mintedAt) >= h.ttl:
		// The TTL lapsed before the schedule came round (the operator was
		// down, say): a re-mint that arrived too late, as the metric must say.
		return p.mint(ctx, c, sess, roleID, TriggerReactive, fmt.Sprintf("the secret ID minted at %s outlived its %s TTL", h.mintedAt.Format(time.RFC3339), h.ttl))
	case h.ttl > 0 && now.Sub(h.mintedAt) > h.ttl*2/3:
		return p.mint(ctx, c, sess, roleID, TriggerProactive, fmt.Sprintf("the secret ID minted at %s is past two thirds of its %s TTL", h.mintedAt.Format(time.RFC3339), h.ttl))
	}
	probe, err := c.AppRoleLogin(ctx, h.roleID, h.secretID)
	if err == nil {
		probe.End(ctx)
		p.accepted(h)
		return p.nextMint(h), nil
	}
	if openbao.KindOf(err) == openbao.Invalid {
		if now.Sub(h.mintedAt) >= reactiveAfter {
			return p.mint(ctx, c, sess, roleID, TriggerReactive, fmt.Sprintf("the server refused the secret ID minted at %s", h.mintedAt.Format(time.RFC3339)))
		}
		return p.fail(barbicanv1.ConditionCredentialsReady, barbicanv1.ReasonInvalidCredentials, fmt.Sprintf(
			"the server refused the secret ID minted at %s, less than %s ago; not minting again: %v", h.mintedAt.Format(time.RFC3339), reactiveAfter, err))
	}
	return p.fail(barbicanv1.ConditionCredentialsReady, barbicanv1.ReasonOpenBaoUnreachable, err.Error())
}

// held reads <store>-approle on the parent's cluster; why says what calls
// for an initial mint ("" when the pair can be kept or probed).
func (p *storePass) held(ctx context.Context) (held, string, error) {
	name := ApproleSecretName(p.store.Name)
	var s corev1.Secret
	err := p.target.Reader.Get(ctx, client.ObjectKey{Namespace: p.store.Namespace, Name: name}, &s)
	if apierrors.IsNotFound(err) {
		return held{}, fmt.Sprintf("Secret %s does not exist", name), nil
	}
	if err != nil {
		return held{}, "", fmt.Errorf("reading Secret %s: %w", name, err)
	}
	h := held{roleID: string(s.Data[barbicanv1.KeyRoleID]), secretID: string(s.Data[barbicanv1.KeySecretID])}
	if h.roleID == "" || h.secretID == "" {
		return h, fmt.Sprintf("Secret %s lacks %s or %s", name, barbicanv1.KeyRoleID, barbicanv1.KeySecretID), nil
	}
	at, err1 := time.Parse(time.RFC3339, s.Annotations[barbicanv1.AnnotationMintedAt])
	secs, err2 := strconv.ParseInt(s.Annotations[barbicanv1.AnnotationTTLSeconds], 10, 64)
	if err1 != nil || err2 != nil || secs < 0 {
		return h, fmt.Sprintf("Secret %s carries no readable %s and %s annotations", name, barbicanv1.AnnotationMintedAt, barbicanv1.AnnotationTTLSeconds), nil
	}
	h.mintedAt, h.ttl = at, time.Duration(secs)*time.Second
	return h, "", nil
}

// mint generates a secret ID, writes <store>-approle and login-probes the
// new pair; a re-mint (trigger set) is counted only once the probe passed.
func (p *storePass) mint(ctx context.Context, c *openbao.Client, sess *openbao.Session, roleID, trigger, why string) (time.Duration, error) {
	secretID, ttl, err := sess.MintSecretID(ctx, ManagedRole)
	if err != nil {
		return p.fail(barbicanv1.ConditionCredentialsReady, deniedOr(err), fmt.Sprintf("minting a secret ID (%s): %v", why, err))
	}
	h := held{roleID: roleID, secretID: secretID, mintedAt: p.r.now().UTC().Truncate(time.Second), ttl: ttl}
	if err := p.write(ctx, h); err != nil {
		return 0, err
	}
	probe, err := c.AppRoleLogin(ctx, h.roleID, h.secretID)
	if err != nil {
		reason := barbicanv1.ReasonOpenBaoUnreachable
		if openbao.KindOf(err) == openbao.Invalid {
			reason = barbicanv1.ReasonInvalidCredentials
		}
		return p.fail(barbicanv1.ConditionCredentialsReady, reason, fmt.Sprintf("the server refused the secret ID just minted: %v", err))
	}
	probe.End(ctx)
	if trigger != "" && p.r.Remints != nil {
		p.r.Remints.WithLabelValues(p.store.Name, p.store.Namespace, trigger).Inc()
	}
	p.accepted(h)
	return p.nextMint(h), nil
}

// write stores the pair with its mint time and TTL, owned by the store.
func (p *storePass) write(ctx context.Context, h held) error {
	st := p.store
	sec := &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{
			Name: ApproleSecretName(st.Name), Namespace: st.Namespace,
			Labels: Profile.Identity(st.Namespace, st.Spec.BarbicanRef.Name).Labels(),
			Annotations: map[string]string{
				barbicanv1.AnnotationMintedAt:   h.mintedAt.Format(time.RFC3339),
				barbicanv1.AnnotationTTLSeconds: strconv.FormatInt(int64(h.ttl/time.Second), 10),
			},
		},
		Type: corev1.SecretTypeOpaque,
		Data: map[string][]byte{barbicanv1.KeyRoleID: []byte(h.roleID), barbicanv1.KeySecretID: []byte(h.secretID)},
	}
	owner := apply.Owner{Object: st, Kind: "BarbicanSecretStore", Scheme: p.r.Scheme, Remote: p.target.Remote()}
	if _, err := apply.Ensure(ctx, p.target.Client, owner, sec, nil); err != nil {
		return fmt.Errorf("writing Secret %s: %w", sec.Name, err)
	}
	return nil
}

// accepted sets CredentialsReady True for a pair the server accepted.
func (p *storePass) accepted(h held) {
	exp := "no expiry"
	if h.ttl > 0 {
		exp = "expires " + h.mintedAt.Add(h.ttl).Format(time.RFC3339)
	}
	p.validated([]byte(h.roleID), []byte(h.secretID))
	p.setTrue(barbicanv1.ConditionCredentialsReady, barbicanv1.ReasonCredentialsAvailable,
		fmt.Sprintf("secret ID in Secret %s minted at %s (%s) accepted by the server", ApproleSecretName(p.store.Name), h.mintedAt.Format(time.RFC3339), exp))
}

// nextMint is the requeue at two thirds of the TTL, floored at the wait
// cadence; 15 minutes for a secret ID without a TTL.
func (p *storePass) nextMint(h held) time.Duration {
	if h.ttl <= 0 {
		return revalidateStore
	}
	return max(h.mintedAt.Add(h.ttl*2/3).Sub(p.r.now()), requeueStoreWait)
}
