package controller

import (
	"context"
	"fmt"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/upgrade"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// requeueBackends polls for a ready default backend (the database wait's interval).
const requeueBackends = 30 * time.Second

// reconcileDatabase provisions the schema, then runs db-sync at rest or the
// expand-migrate-contract flow of a release upgrade. Without a rendered
// config (no valid backend projection yet) there is nothing to migrate
// with: the Deployment step still runs to report the same wait. The first
// db sync also waits until every attached backend has been checked: a
// config rendered from the backends checked first would name fewer stores,
// and the next backend's verdict would replace the Job (and roll the
// Deployment) with the config that names them all.
func (r *GlanceReconciler) reconcileDatabase(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	if out, err := r.ProvisionDatabase(ctx, &s.Scope); pipeline.Stops(out, err) {
		return out, err
	}
	if s.Config == "" || s.backendsSecret == "" {
		s.SetFalse(conditions.TypeDatabaseReady, glancev1.ReasonWaitingForBackends, waitingForDefault)
		return pipeline.ProceedAndRequeueAfter(requeueBackends), nil
	}
	if s.glance.Status.InstalledRelease == "" && len(s.unchecked) > 0 {
		s.SetFalse(conditions.TypeDatabaseReady, glancev1.ReasonWaitingForBackends,
			fmt.Sprintf(waitingForCheck, strings.Join(s.unchecked, ", ")))
		return pipeline.RequeueAfter(requeueBackends), nil
	}
	g := s.glance
	flow := upgrade.Flow{
		R:      &r.Reconciler,
		S:      &s.Scope,
		Phase:  &g.Status.UpgradePhase,
		DBSync: render.DBSyncJob(g, s.Config, s.DBTargetHash),
		Job: func(phase string) *batchv1.Job {
			return render.PhaseJob(g, phase, s.Config, s.DBTargetHash)
		},
	}
	return flow.Run(ctx)
}

const (
	waitingForDefault = "no ready default GlanceBackend has produced a rendered config yet"
	waitingForCheck   = "waiting for the GlanceBackend controller to check %s before the first db sync"
)
