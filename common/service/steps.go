package service

import (
	"context"
	"slices"

	"github.com/c5c3/openstack-operators/common/conditions"
	"github.com/c5c3/openstack-operators/common/pipeline"
)

// Host is an operator's reconciler: it embeds Reconciler.
type Host interface{ Core() *Reconciler }

// Scoped is an operator's scope: it embeds Scope.
type Scoped interface{ Core() *Scope }

// Table is the constraint of a step table over Host R and scope S.
type Table[S any] interface {
	Scoped
	pipeline.Scope[S]
}

// Head are the first rows of every service's step table: the secrets gate
// and the DSN Secret, both reporting through SecretsReady.
func Head[R Host, S Table[S]]() []pipeline.Step[R, S] {
	return []pipeline.Step[R, S]{
		{Name: "Secrets", Condition: conditions.TypeSecretsReady, Run: SecretsStep[R, S]},
		{Name: "DBConnectionSecret", Condition: conditions.TypeSecretsReady, Run: DBConnectionSecretStep[R, S]},
	}
}

// Optional are the parallel members every service has: the HTTPRoute, the
// health probe (setting apiCondition), the HPA and the NetworkPolicy.
func Optional[R Host, S Table[S]](apiCondition string) []pipeline.Step[R, S] {
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

// Steps is a service's whole step table: Head, then the service's own
// steps in order, then one parallel group of Optional (the health probe
// setting apiCondition) and the service's own optional members.
func Steps[R Host, S Table[S]](apiCondition string, own []pipeline.Step[R, S], optional ...pipeline.Step[R, S]) []pipeline.Step[R, S] {
	return slices.Concat(Head[R, S](), own,
		[]pipeline.Step[R, S]{pipeline.Parallel(append(Optional[R, S](apiCondition), optional...)...)})
}
