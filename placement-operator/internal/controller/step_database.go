package controller

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/c5c3/openstack-operators/common/conditions"
	"github.com/c5c3/openstack-operators/common/dbsync"
	"github.com/c5c3/openstack-operators/common/mariadb"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/release"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/render"
)

// reconcileDatabase provisions the schema, gates the release, runs the
// db-sync Job and promotes installedRelease on its success.
func (r *PlacementReconciler) reconcileDatabase(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	p := s.placement
	conds := s.Conditions()
	verdict, err := mariadb.Provision(ctx, s.target.Client, s.owner, mariadb.Request{
		Namespace: p.Namespace, Name: p.Name, Database: p.Spec.Database,
	})
	if err != nil {
		return pipeline.Continue(), err
	}
	if !verdict.Ready {
		conditions.False(conds, s.gen(), placementv1.ConditionDatabaseReady, verdict.Reason, verdict.Message)
		return pipeline.RequeueAfter(requeueDatabase), nil
	}
	if out, err, stop := r.gateRelease(s); stop {
		return out, err
	}
	job := render.DBSyncJob(p, s.configMap, s.dbTargetHash)
	st, err := dbsync.Ensure(ctx, s.target.Client, s.target.Reader, s.owner, job)
	if err != nil {
		return pipeline.Continue(), err
	}
	switch st.State {
	case dbsync.Running:
		conditions.False(conds, s.gen(), placementv1.ConditionDatabaseReady, conditions.ReasonDBSyncInProgress, st.Message)
		return pipeline.RequeueAfter(requeueDatabase), nil
	case dbsync.Failed:
		r.recordSync(ctx, p, st, dbsync.ResultFailed)
		msg := fmt.Sprintf("db_sync job failed: %s", st.Message)
		conditions.False(conds, s.gen(), placementv1.ConditionDatabaseReady, conditions.ReasonDBSyncFailed, msg)
		r.Recorder.Eventf(p, nil, corev1.EventTypeWarning, conditions.ReasonDBSyncFailed, "DBSync", "%s", msg)
		return pipeline.Continue(), fmt.Errorf("%s", msg)
	}
	r.recordSync(ctx, p, st, dbsync.ResultSucceeded)
	wasSynced := p.Status.InstalledRelease == p.Spec.OpenStackRelease && conditionTrue(p, placementv1.ConditionDatabaseReady)
	p.Status.InstalledRelease = p.Spec.OpenStackRelease
	p.Status.InstalledImage = p.Spec.Image.Reference()
	p.Status.TargetRelease = ""
	conditions.True(conds, s.gen(), placementv1.ConditionDatabaseReady, conditions.ReasonDatabaseSynced,
		fmt.Sprintf("schema synced for release %s", p.Spec.OpenStackRelease))
	if !wasSynced {
		r.Recorder.Eventf(p, nil, corev1.EventTypeNormal, conditions.ReasonDatabaseSynced, "DBSync",
			"db-sync Job %s completed for release %s", job.Name, p.Spec.OpenStackRelease)
	}
	return pipeline.Continue(), nil
}

// gateRelease runs the tag check and the release gate; stop reports that the
// step must return out and err.
func (r *PlacementReconciler) gateRelease(s *scope) (out pipeline.Outcome, err error, stop bool) {
	p := s.placement
	conds := s.Conditions()
	if ref := release.CheckTag(p.Spec.Image.Tag, p.Spec.OpenStackRelease); ref != nil {
		conditions.False(conds, s.gen(), placementv1.ConditionDatabaseReady, ref.Reason, ref.Message)
		return pipeline.RequeueAfter(requeueDatabase), nil, true
	}
	accepted, refusal := release.Gate(p.Status.InstalledRelease, p.Spec.OpenStackRelease, p.Status.InstalledImage, p.Spec.Image.Reference())
	if refusal != nil {
		conditions.False(conds, s.gen(), placementv1.ConditionDatabaseReady, refusal.Reason, refusal.Message)
		r.Recorder.Eventf(p, nil, corev1.EventTypeWarning, refusal.Reason, "ReleaseGate", "%s", refusal.Message)
		return pipeline.Continue(), refusal, true
	}
	if accepted {
		p.Status.TargetRelease = p.Spec.OpenStackRelease
	}
	return pipeline.Continue(), nil, false
}

// recordSync counts a terminal Job once; a failed record is reported and retried next pass.
func (r *PlacementReconciler) recordSync(ctx context.Context, p *placementv1.Placement, st dbsync.Status, result string) {
	if err := dbsync.Record(ctx, r.Client, p, st.Job, r.Metrics, result); err != nil {
		log.FromContext(ctx).Info("deferring db-sync metric emission", "error", err.Error())
		r.Recorder.Eventf(p, nil, corev1.EventTypeWarning, "DBSyncMetricEmissionDeferred", "DBSync", "%s", err.Error())
	}
}
