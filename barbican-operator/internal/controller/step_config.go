package controller

import (
	"context"
	"fmt"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/secrets"
	"github.com/c5c3/openstack-operators/common/framework/service"
)

// reconcileConfig renders barbican.conf, the paste pipeline and policy.yaml
// into an immutable content-addressed Secret and reports
// ExtraConfigHealthy. An invalid store projection renders nothing: the
// live Deployment's config Secret and store mount stay (none on a first
// install).
func (r *BarbicanReconciler) reconcileConfig(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	b, p := s.barbican, s.projection
	if p == nil {
		if err := r.lastGood(ctx, s); err != nil {
			return pipeline.Continue(), service.ConfigFailed(&s.Scope, err)
		}
		return pipeline.Continue(), nil
	}
	out, err := r.Config(ctx, &s.Scope, render.ConfigBase(b), render.OwnedKeys, func(rules map[string]string) (map[string]string, error) {
		return render.ConfigData(b, p.stores, rules, r.Endpoint(b))
	})
	if err == nil {
		// The record (and the egress that follows it on an invalid pass)
		// moves only with a config that was written.
		r.record(s, p.stores)
	}
	return out, err
}

// lastGood takes what the live Deployment runs with: its config Secret and
// the default store's credentials and CA Secrets, with the digest of the
// secret ID that credentials Secret holds.
func (r *BarbicanReconciler) lastGood(ctx context.Context, s *scope) error {
	d, err := r.LiveDeployment(ctx, &s.Scope)
	if d == nil || err != nil {
		return err
	}
	pod := d.Spec.Template
	for _, v := range pod.Spec.Volumes {
		switch {
		case v.Name == render.ConfigVolume && v.Secret != nil:
			s.Config = v.Secret.SecretName
		case v.Name == render.CAVolume && v.Secret != nil:
			s.store.CASecret = v.Secret.SecretName
		}
	}
	for _, c := range pod.Spec.Containers {
		for _, e := range c.Env {
			if e.Name == render.EnvSecretID && e.ValueFrom != nil && e.ValueFrom.SecretKeyRef != nil {
				s.store.CredentialsSecret = e.ValueFrom.SecretKeyRef.Name
			}
		}
	}
	s.storeHash = pod.Annotations[render.StoreCredsHash]
	// A re-mint or a rotated pair must still roll the pods: the digest is of
	// the secret ID the Secret holds now once a store validated that pair,
	// the live annotation while it cannot be read or is unchecked.
	if s.store.CredentialsSecret != "" {
		sec, _, err := secrets.Usable(ctx, s.Target.Client, s.barbican.Namespace, s.store.CredentialsSecret, barbicanv1.KeySecretID)
		if err != nil {
			return fmt.Errorf("reading Secret %s: %w", s.store.CredentialsSecret, err)
		}
		if sec != nil && validatedBy(s.attached, s.store.CredentialsSecret, sec.Data) {
			s.storeHash = secrets.Digest(sec.Data[barbicanv1.KeySecretID])
		}
	}
	return nil
}
