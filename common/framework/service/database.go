package service

import (
	"context"
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/dbsync"
	"github.com/c5c3/openstack-operators/common/framework/mariadb"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/lib/release"
)

// ProvisionDatabase ensures the MariaDB Database, User and Grant of a managed
// database (a no-op for a brownfield host) and waits for them.
func (r *Reconciler) ProvisionDatabase(ctx context.Context, s *Scope) (pipeline.Outcome, error) {
	verdict, err := mariadb.Provision(ctx, s.Target.Client, s.Owner, mariadb.Request{
		Namespace: s.CR.GetNamespace(), Name: s.CR.GetName(), Database: s.Spec().Database,
		MaxUserConnections: s.MaxUserConnections,
	})
	if err != nil {
		return pipeline.Continue(), err
	}
	if !verdict.Ready {
		s.SetFalse(conditions.TypeDatabaseReady, verdict.Reason, verdict.Message)
		return pipeline.RequeueAfter(RequeueDatabase), nil
	}
	return pipeline.Continue(), nil
}

// CheckImageTag refuses an image tag that names another release than
// spec.openStackRelease (no event: it is a wait, not a refusal of a bump).
func (r *Reconciler) CheckImageTag(s *Scope) (pipeline.Outcome, error) {
	spec := s.Spec()
	if ref := release.CheckTag(spec.Image.Tag, spec.OpenStackRelease); ref != nil {
		s.SetFalse(conditions.TypeDatabaseReady, ref.Reason, ref.Message)
		return pipeline.RequeueAfter(RequeueDatabase), nil
	}
	return pipeline.Continue(), nil
}

// Refuse reports a refused release change: condition, Warning event and the
// refusal as the step's error (backoff).
func (r *Reconciler) Refuse(s *Scope, refusal *release.Refusal) (pipeline.Outcome, error) {
	s.SetFalse(conditions.TypeDatabaseReady, refusal.Reason, refusal.Message)
	r.Recorder.Eventf(s.CR, nil, corev1.EventTypeWarning, refusal.Reason, "ReleaseGate", "%s", refusal.Message)
	return pipeline.Continue(), refusal
}

// GateRelease runs the tag check and the release gate; an accepted bump
// stamps targetRelease.
func (r *Reconciler) GateRelease(s *Scope) (pipeline.Outcome, error) {
	if out, err := r.CheckImageTag(s); pipeline.Stops(out, err) {
		return out, err
	}
	spec, status := s.Spec(), s.Status()
	accepted, refusal := release.Gate(status.InstalledRelease, spec.OpenStackRelease, status.InstalledImage, spec.Image.Reference())
	if refusal != nil {
		return r.Refuse(s, refusal)
	}
	if accepted {
		status.TargetRelease = spec.OpenStackRelease
	}
	return pipeline.Continue(), nil
}

// RunMigration drives one migration Job (db-sync or an upgrade phase) and
// counts it once per terminal UID. On success the step goes on; while it
// runs, or when it failed, the step stops with the condition set (failedReason: reason and event of a failure; running: reason while it runs).
func (r *Reconciler) RunMigration(ctx context.Context, s *Scope, job *batchv1.Job, running, failedReason string) (pipeline.Outcome, error) {
	st, err := dbsync.Ensure(ctx, s.Target.Client, s.Target.Reader, s.Owner, job)
	if err != nil {
		return pipeline.Continue(), err
	}
	if old := st.Replaced; old != nil {
		result := dbsync.ResultSucceeded
		if _, failed, _ := dbsync.Terminal(old); failed {
			result = dbsync.ResultFailed
		}
		r.recordMigration(ctx, s, dbsync.Status{Job: old}, result)
	}
	switch st.State {
	case dbsync.Running:
		s.SetFalse(conditions.TypeDatabaseReady, running, st.Message)
		return pipeline.RequeueAfter(RequeueDatabase), nil
	case dbsync.Failed:
		r.recordMigration(ctx, s, st, dbsync.ResultFailed)
		msg := fmt.Sprintf("job %s failed: %s", job.Name, st.Message)
		s.SetFalse(conditions.TypeDatabaseReady, failedReason, msg)
		r.Recorder.Eventf(s.CR, nil, corev1.EventTypeWarning, failedReason, "DBSync", "%s", msg)
		return pipeline.Continue(), fmt.Errorf("%s", msg)
	}
	r.recordMigration(ctx, s, st, dbsync.ResultSucceeded)
	return pipeline.Continue(), nil
}

// DBSync runs the db-sync Job and, on its success, promotes installedRelease
// and installedImage, clears targetRelease and sets DatabaseSynced.
func (r *Reconciler) DBSync(ctx context.Context, s *Scope, job *batchv1.Job) (pipeline.Outcome, error) {
	if out, err := r.RunMigration(ctx, s, job, conditions.ReasonDBSyncInProgress, conditions.ReasonDBSyncFailed); pipeline.Stops(out, err) {
		return out, err
	}
	spec, status := s.Spec(), s.Status()
	wasSynced := status.InstalledRelease == spec.OpenStackRelease && s.IsTrue(conditions.TypeDatabaseReady)
	status.InstalledRelease = spec.OpenStackRelease
	status.InstalledImage = spec.Image.Reference()
	status.TargetRelease = ""
	s.SetTrue(conditions.TypeDatabaseReady, conditions.ReasonDatabaseSynced,
		fmt.Sprintf("schema synced for release %s", spec.OpenStackRelease))
	if !wasSynced {
		r.Recorder.Eventf(s.CR, nil, corev1.EventTypeNormal, conditions.ReasonDatabaseSynced, "DBSync",
			"db-sync Job %s completed for release %s", job.Name, spec.OpenStackRelease)
	}
	return pipeline.Continue(), nil
}

// recordMigration counts a terminal Job once; a failed record is reported and retried next pass.
func (r *Reconciler) recordMigration(ctx context.Context, s *Scope, st dbsync.Status, result string) {
	if err := dbsync.Record(ctx, r.Client, s.CR, st.Job, r.Metrics, result); err != nil {
		log.FromContext(ctx).Info("deferring db-sync metric emission", "error", err.Error())
		r.Recorder.Eventf(s.CR, nil, corev1.EventTypeWarning, "DBSyncMetricEmissionDeferred", "DBSync", "%s", err.Error())
	}
}
