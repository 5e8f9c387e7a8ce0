package service

import (
	"context"
	"slices"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
)

// EmbedsReconciler is an operator's reconciler: it embeds Reconciler.
type EmbedsReconciler interface{ ServiceReconciler() *Reconciler }

// EmbedsScope is an operator's scope: it embeds Scope.
type EmbedsScope interface{ ServiceScope() *Scope }

// StepScope is the constraint on the scope S of a step table: it embeds
// Scope and forks as a pipeline scope.
type StepScope[S any] interface {
	EmbedsScope
	pipeline.Scope[S]
}

// Head are the first rows of every service's step table: the secrets gate
// and the DSN Secret, both reporting through SecretsReady.
func Head[R EmbedsReconciler, S StepScope[S]]() []pipeline.Step[R, S] {
	return []pipeline.Step[R, S]{
		{Name: "Secrets", Condition: conditions.TypeSecretsReady, Run: SecretsStep[R, S]},
		{Name: "DBConnectionSecret", Condition: conditions.TypeSecretsReady, Run: DBConnectionSecretStep[R, S]},
	}
}

// Optional are the parallel members every service has: the HTTPRoute, the
// health probe (setting apiCondition), the HPA and the NetworkPolicy.
func Optional[R EmbedsReconciler, S StepScope[S]](apiCondition string) []pipeline.Step[R, S] {
	return []pipeline.Step[R, S]{
		{Name: "HTTPRoute", Condition: conditions.TypeHTTPRouteReady, Run: HTTPRouteStep[R, S]},
		{Name: "HealthCheck", Condition: apiCondition, Run: HealthCheckStep[R, S]},
		{Name: "HPA", Condition: conditions.TypeHPAReady, Run: HPAStep[R, S]},
		{Name: "NetworkPolicy", Condition: conditions.TypeNetworkPolicyReady, Run: NetworkPolicyStep[R, S]},
	}
}

// The shared steps in the form of a step table row's Run, for any operator
// whose reconciler embeds Reconciler and whose scope embeds Scope.

// SecretsStep runs Reconciler.Secrets.
func SecretsStep[R EmbedsReconciler, S EmbedsScope](r R, ctx context.Context, s S) (pipeline.Outcome, error) {
	return r.ServiceReconciler().Secrets(ctx, s.ServiceScope())
}

// DBConnectionSecretStep runs Reconciler.DBConnectionSecret.
func DBConnectionSecretStep[R EmbedsReconciler, S EmbedsScope](r R, ctx context.Context, s S) (pipeline.Outcome, error) {
	return r.ServiceReconciler().DBConnectionSecret(ctx, s.ServiceScope())
}

// HTTPRouteStep runs Reconciler.HTTPRoute.
func HTTPRouteStep[R EmbedsReconciler, S EmbedsScope](r R, ctx context.Context, s S) (pipeline.Outcome, error) {
	return r.ServiceReconciler().HTTPRoute(ctx, s.ServiceScope())
}

// HealthCheckStep runs Reconciler.HealthCheck.
func HealthCheckStep[R EmbedsReconciler, S EmbedsScope](r R, ctx context.Context, s S) (pipeline.Outcome, error) {
	return r.ServiceReconciler().HealthCheck(ctx, s.ServiceScope())
}

// HPAStep runs Reconciler.HPA.
func HPAStep[R EmbedsReconciler, S EmbedsScope](r R, ctx context.Context, s S) (pipeline.Outcome, error) {
	return r.ServiceReconciler().HPA(ctx, s.ServiceScope())
}

// NetworkPolicyStep runs Reconciler.NetworkPolicy.
func NetworkPolicyStep[R EmbedsReconciler, S EmbedsScope](r R, ctx context.Context, s S) (pipeline.Outcome, error) {
	return r.ServiceReconciler().NetworkPolicy(ctx, s.ServiceScope())
}

// Steps is a service's whole step table: Head, then the service's own
// steps in order, then one parallel group of Optional (the health probe
// setting apiCondition) and the service's own optional members.
func Steps[R EmbedsReconciler, S StepScope[S]](apiCondition string, own []pipeline.Step[R, S], optional ...pipeline.Step[R, S]) []pipeline.Step[R, S] {
	return slices.Concat(Head[R, S](), own,
		[]pipeline.Step[R, S]{pipeline.Parallel(append(Optional[R, S](apiCondition), optional...)...)})
}
