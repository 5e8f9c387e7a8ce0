package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/yaml"

	"github.com/c5c3/openstack-operators/common/conditions"
	"github.com/c5c3/openstack-operators/common/configartifact"
	"github.com/c5c3/openstack-operators/common/extraconfig"
	"github.com/c5c3/openstack-operators/common/pipeline"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// reconcileConfig renders the config files into an immutable content-addressed
// ConfigMap, prunes older generations and reports ExtraConfigHealthy.
func (r *PlacementReconciler) reconcileConfig(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	p := s.placement
	if err := r.config(ctx, s); err != nil {
		conditions.False(s.Conditions(), s.gen(), placementv1.ConditionSecretsReady, conditions.ReasonConfigError, err.Error())
		return pipeline.Continue(), err
	}
	r.reportExtraConfig(p)
	return pipeline.Continue(), nil
}

func (r *PlacementReconciler) config(ctx context.Context, s *scope) error {
	p := s.placement
	rules, err := r.policyRules(ctx, s)
	if err != nil {
		return err
	}
	data, err := render.ConfigData(p, rules)
	if err != nil {
		return err
	}
	base := render.ConfigBase(p)
	cm := configartifact.BuildConfigMap(p.Namespace, base, render.Identity(p).Labels(), data)
	if err := configartifact.EnsureConfigMap(ctx, s.target.Client, s.target.Reader, s.owner, cm); err != nil {
		return err
	}
	s.configMap = cm.Name
	return configartifact.PruneConfigMaps(ctx, s.target.Client, s.owner, p.Namespace, base, cm.Name)
}

// policyRules merges the policy ConfigMap's rules with the inline ones (inline wins).
func (r *PlacementReconciler) policyRules(ctx context.Context, s *scope) (map[string]string, error) {
	po := s.placement.Spec.PolicyOverrides
	if po == nil {
		return nil, nil
	}
	var fromCM map[string]string
	if po.ConfigMapRef != nil {
		var cm corev1.ConfigMap
		key := client.ObjectKey{Namespace: s.placement.Namespace, Name: po.ConfigMapRef.Name}
		if err := s.target.Reader.Get(ctx, key, &cm); err != nil {
			return nil, fmt.Errorf("reading policy ConfigMap %s: %w", po.ConfigMapRef.Name, err)
		}
		raw, ok := cm.Data[render.KeyPolicy]
		if !ok {
			return nil, fmt.Errorf("policy ConfigMap %s has no key %s", po.ConfigMapRef.Name, render.KeyPolicy)
		}
		if err := yaml.Unmarshal([]byte(raw), &fromCM); err != nil {
			return nil, fmt.Errorf("parsing %s of ConfigMap %s: %w", render.KeyPolicy, po.ConfigMapRef.Name, err)
		}
	}
	return render.MergePolicy(fromCM, po.Rules), nil
}

// reportExtraConfig sets ExtraConfigHealthy and warns when it turns False or
// its key set changes.
func (r *PlacementReconciler) reportExtraConfig(p *placementv1.Placement) {
	msg := extraconfig.OverrideMessage(render.OwnedKeys.Overrides(p.Spec.ExtraConfig))
	prev := meta.FindStatusCondition(p.Status.Conditions, placementv1.ConditionExtraConfigHealthy)
	if msg == "" {
		conditions.True(&p.Status.Conditions, p.Generation, placementv1.ConditionExtraConfigHealthy,
			conditions.ReasonNoOwnedKeysOverridden, "spec.extraConfig overrides no operator-owned key")
		return
	}
	if prev == nil || prev.Status != "False" || prev.Message != msg {
		r.Recorder.Eventf(p, nil, corev1.EventTypeWarning, "ExtraConfigOwnedKeyOverride", "Config", "%s", msg)
	}
	conditions.False(&p.Status.Conditions, p.Generation, placementv1.ConditionExtraConfigHealthy,
		conditions.ReasonOwnedKeysOverridden, msg)
}
