package service

import (
	"context"

	"github.com/c5c3/openstack-operators/common/pipeline"
)

// Host is an operator's reconciler: it embeds Reconciler.
type Host interface{ Core() *Reconciler }

// Scoped is an operator's scope: it embeds Scope.
type Scoped interface{ Core() *Scope }

// The shared steps in the form of a step table row's Run, for any operator
// whose reconciler embeds Reconciler and whose scope embeds Scope:
//
//	{Name: "HPA", Condition: conditions.TypeHPAReady, Run: service.HPAStep[*Reconciler, *scope]},

// SecretsStep runs Reconciler.Secrets.
func SecretsStep[R Host, S Scoped](r R, ctx context.Context, s S) (pipeline.Outcome, error) {
	return r.Core().Secrets(ctx, s.Core())
}

// DBConnectionSecretStep runs Reconciler.DBConnectionSecret.
func DBConnectionSecretStep[R Host, S Scoped](r R, ctx context.Context, s S) (pipeline.Outcome, error) {
	return r.Core().DBConnectionSecret(ctx, s.Core())
}

// HTTPRouteStep runs Reconciler.HTTPRoute.
func HTTPRouteStep[R Host, S Scoped](r R, ctx context.Context, s S) (pipeline.Outcome, error) {
	return r.Core().HTTPRoute(ctx, s.Core())
}

// HealthCheckStep runs Reconciler.HealthCheck.
func HealthCheckStep[R Host, S Scoped](r R, ctx context.Context, s S) (pipeline.Outcome, error) {
	return r.Core().HealthCheck(ctx, s.Core())
}

// HPAStep runs Reconciler.HPA.
func HPAStep[R Host, S Scoped](r R, ctx context.Context, s S) (pipeline.Outcome, error) {
	return r.Core().HPA(ctx, s.Core())
}

// NetworkPolicyStep runs Reconciler.NetworkPolicy.
func NetworkPolicyStep[R Host, S Scoped](r R, ctx context.Context, s S) (pipeline.Outcome, error) {
	return r.Core().NetworkPolicy(ctx, s.Core())
}
