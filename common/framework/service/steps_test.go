package service

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/c5c3/openstack-operators/common/framework/pipeline"
)

// tableScope is the smallest scope a step table takes.
type tableScope struct{ Scope }

func (s *tableScope) Fork() *tableScope { c := *s; return &c }

func noop(*Reconciler, context.Context, *tableScope) (pipeline.Outcome, error) {
	return pipeline.Outcome{}, nil
}

// A service's table is the shared head, its own rows in order, then one
// parallel group: the shared optional members, then its own.
func TestStepsFrameTheServiceRows(t *testing.T) {
	type step = pipeline.Step[*Reconciler, *tableScope]
	p := pipeline.New(nil, Steps("APIReady", []step{
		{Name: "Config", Condition: "SecretsReady", Run: noop},
		{Name: "Deployment", Condition: "DeploymentReady", Run: noop},
	}, step{Name: "Purge", Condition: "PurgeReady", Run: noop})...)
	head := "Secrets ─► DBConnectionSecret ─► Config ─► Deployment ─► "
	indent := strings.Repeat(" ", utf8.RuneCountInString(head))
	want := head + "┬ HTTPRoute\n" +
		indent + "├ HealthCheck\n" +
		indent + "├ HPA\n" +
		indent + "├ NetworkPolicy\n" +
		indent + "└ Purge  (parallel)\n"
	if got := p.Diagram(); got != want {
		t.Errorf("Diagram:\n%q\nwant:\n%q", got, want)
	}
}
