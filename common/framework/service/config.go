package service

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/configartifact"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
	"github.com/c5c3/openstack-operators/common/lib/osconfig"
)

// PolicyRules merges the rules of spec.policyOverrides' ConfigMap (read on
// the children's cluster) with the inline ones, inline winning; nil when no
// overrides are set.
func (r *Reconciler) PolicyRules(ctx context.Context, s *Scope) (map[string]string, error) {
	po := s.Spec().PolicyOverrides
	if po == nil {
		return nil, nil
	}
	var fromCM map[string]string
	if po.ConfigMapRef != nil {
		var cm corev1.ConfigMap
		key := client.ObjectKey{Namespace: s.CR.GetNamespace(), Name: po.ConfigMapRef.Name}
		if err := s.Target.Reader.Get(ctx, key, &cm); err != nil {
			return nil, fmt.Errorf("reading policy ConfigMap %s: %w", po.ConfigMapRef.Name, err)
		}
		raw, ok := cm.Data[osconfig.PolicyKey]
		if !ok {
			return nil, fmt.Errorf("policy ConfigMap %s has no key %s", po.ConfigMapRef.Name, osconfig.PolicyKey)
		}
		if err := yaml.Unmarshal([]byte(raw), &fromCM); err != nil {
			return nil, fmt.Errorf("parsing %s of ConfigMap %s: %w", osconfig.PolicyKey, po.ConfigMapRef.Name, err)
		}
	}
	return osconfig.MergePolicy(fromCM, po.Rules), nil
}

// ConfigFailed reports a config failure on SecretsReady (ConfigError) and
// returns it for backoff.
func ConfigFailed(s *Scope, err error) error {
	s.SetFalse(conditions.TypeSecretsReady, conditions.ReasonConfigError, err.Error())
	return err
}

// ReportExtraConfig sets ExtraConfigHealthy from the owned keys spec.extraConfig
// overrides, and warns when it turns False or its key set changes.
func (r *Reconciler) ReportExtraConfig(s *Scope, owned extraconfig.Registry) {
	msg := extraconfig.OverrideMessage(owned.Overrides(s.Spec().ExtraConfig))
	prev := meta.FindStatusCondition(*s.Conditions(), conditions.TypeExtraConfigHealthy)
	if msg == "" {
		s.SetTrue(conditions.TypeExtraConfigHealthy, conditions.ReasonNoOwnedKeysOverridden, "spec.extraConfig overrides no operator-owned key")
		return
	}
	if prev == nil || prev.Status != "False" || prev.Message != msg {
		r.Recorder.Eventf(s.CR, nil, corev1.EventTypeWarning, "ExtraConfigOwnedKeyOverride", "Config", "%s", msg)
	}
	s.SetFalse(conditions.TypeExtraConfigHealthy, conditions.ReasonOwnedKeysOverridden, msg)
}

// Config renders the service config with the merged policy rules, writes it
// as the immutable content-addressed ConfigMap <base>-<hash8> (s.Config; a
// Secret when Profile.ConfigSecret),
// prunes older generations and reports ExtraConfigHealthy; a failure reads
// SecretsReady=False/ConfigError.
func (r *Reconciler) Config(ctx context.Context, s *Scope, base string, owned extraconfig.Registry,
	render func(policyRules map[string]string) (map[string]string, error)) (pipeline.Outcome, error) {
	if err := r.writeConfig(ctx, s, base, render); err != nil {
		return pipeline.Continue(), ConfigFailed(s, err)
	}
	r.ReportExtraConfig(s, owned)
	return pipeline.Continue(), nil
}

func (r *Reconciler) writeConfig(ctx context.Context, s *Scope, base string, render func(map[string]string) (map[string]string, error)) error {
	rules, err := r.PolicyRules(ctx, s)
	if err != nil {
		return err
	}
	data, err := render(rules)
	if err != nil {
		return err
	}
	ns := s.CR.GetNamespace()
	if r.Profile.ConfigSecret {
		sec := configartifact.BuildSecret(ns, base, s.ID.Labels(), data)
		if err := configartifact.EnsureSecret(ctx, s.Target.Client, s.Target.Reader, s.Owner, sec); err != nil {
			return err
		}
		s.Config = sec.Name
		return configartifact.PruneSecrets(ctx, s.Target.Client, s.Owner, ns, base, sec.Name)
	}
	cm := configartifact.BuildConfigMap(ns, base, s.ID.Labels(), data)
	if err := configartifact.EnsureConfigMap(ctx, s.Target.Client, s.Target.Reader, s.Owner, cm); err != nil {
		return err
	}
	s.Config = cm.Name
	return configartifact.PruneConfigMaps(ctx, s.Target.Client, s.Owner, ns, base, cm.Name)
}
