// Package upgrade is the expand-migrate-contract release upgrade of a
// service whose schema migrations come in phases (Glance): the old pods keep
// serving the expanded schema while the Deployment rolls to the new release,
// and the contract runs only once the rollout has converged.
package upgrade

import (
	"context"
	"fmt"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/service"
	"github.com/c5c3/openstack-operators/common/lib/release"
)

// Condition reasons of the flow (DatabaseReady).
const (
	ReasonExpandInProgress     = "ExpandInProgress"
	ReasonMigrateInProgress    = "MigrateInProgress"
	ReasonUpgradeRollingUpdate = "UpgradeRollingUpdate"
	ReasonContractInProgress   = "ContractInProgress"
	ReasonExpandFailed         = "ExpandFailed"
	ReasonMigrateFailed        = "MigrateFailed"
	ReasonContractFailed       = "ContractFailed"
	ReasonUpgradeTargetChanged = "UpgradeTargetChanged"
)

// Events of the flow besides the failure reasons above.
const (
	EventUpgradeInitiated          = "UpgradeInitiated"
	EventExpandComplete            = "ExpandComplete"
	EventMigrateComplete           = "MigrateComplete"
	EventDeploymentRolloutComplete = "DeploymentRolloutComplete"
	EventUpgradeComplete           = "UpgradeComplete"
	EventUpgradeAborted            = "UpgradeAborted"
)

// Migration Job phases, the argument of Flow.Job.
const (
	Expand   = "expand"
	Migrate  = "migrate"
	Contract = "contract"
)

// RequeueNow follows a phase change that the next pass acts on at once.
const RequeueNow = 100 * time.Millisecond

// phases maps each phase to its Job, its running and failure reasons, the
// event of its success and the phase that follows.
var phases = map[string]struct {
	job, running, failed, done, next, nextReason string
}{
	serviceapi.PhaseExpanding:   {Expand, ReasonExpandInProgress, ReasonExpandFailed, EventExpandComplete, serviceapi.PhaseMigrating, ReasonMigrateInProgress},
	serviceapi.PhaseMigrating:   {Migrate, ReasonMigrateInProgress, ReasonMigrateFailed, EventMigrateComplete, serviceapi.PhaseRollingUpdate, ReasonUpgradeRollingUpdate},
	serviceapi.PhaseContracting: {Contract, ReasonContractInProgress, ReasonContractFailed, EventUpgradeComplete, "", conditions.ReasonDatabaseSynced},
}

// Flow is one pass of a service's schema migration: db-sync at rest, the
// phase machine while a release upgrade is in flight.
type Flow struct {
	R *service.Reconciler
	S *service.Scope
	// Phase is the CR's status.upgradePhase.
	Phase *string
	// DBSync is the db-sync Job of the current inputs.
	DBSync *batchv1.Job
	// Job builds the phase Job (Expand, Migrate, Contract) of the current inputs.
	Job func(phase string) *batchv1.Job
}

// Run migrates the schema. An upgrade is a spec.openStackRelease that differs
// from a non-empty installedRelease; the gate accepts one step at a time.
// While in RollingUpdate it lets the pipeline go on, so the Deployment rolls
// (see FinishRollout); otherwise a running phase stops the chain.
func (f *Flow) Run(ctx context.Context) (pipeline.Outcome, error) {
	spec, status := f.S.Spec(), f.S.Status()
	if f.inFlight() {
		if spec.OpenStackRelease == status.InstalledRelease {
			return f.abort(ctx)
		}
		if spec.OpenStackRelease != status.TargetRelease {
			return f.refuse(&release.Refusal{Reason: ReasonUpgradeTargetChanged, Message: fmt.Sprintf(
				"release %s was requested while the upgrade from %s to %s is in phase %s; set openStackRelease back to %s to finish it or to %s to abort it",
				spec.OpenStackRelease, status.InstalledRelease, status.TargetRelease, *f.Phase, status.TargetRelease, status.InstalledRelease)})
		}
		if out, err := f.R.CheckImageTag(f.S); pipeline.Stops(out, err) {
			return out, err
		}
		return f.step(ctx)
	}
	if out, err := f.R.CheckImageTag(f.S); pipeline.Stops(out, err) {
		return out, err
	}
	accepted, refusal := release.Gate(status.InstalledRelease, spec.OpenStackRelease, status.InstalledImage, spec.Image.Reference())
	if refusal != nil {
		return f.refuse(refusal)
	}
	if !accepted {
		return f.R.DBSync(ctx, f.S, f.DBSync)
	}
	status.TargetRelease = spec.OpenStackRelease
	*f.Phase = serviceapi.PhaseExpanding
	f.event(EventUpgradeInitiated, "upgrade from %s to %s started: expanding the schema", status.InstalledRelease, status.TargetRelease)
	return f.step(ctx)
}

func (f *Flow) inFlight() bool { return *f.Phase != "" }

// step runs the current phase and moves on when its Job succeeded.
func (f *Flow) step(ctx context.Context) (pipeline.Outcome, error) {
	status := f.S.Status()
	for {
		if *f.Phase == serviceapi.PhaseRollingUpdate {
			f.S.SetFalse(conditions.TypeDatabaseReady, ReasonUpgradeRollingUpdate,
				fmt.Sprintf("schema expanded and migrated for %s; waiting for the Deployment to roll out before the contract", status.TargetRelease))
			return pipeline.Continue(), nil
		}
		ph, ok := phases[*f.Phase]
		if !ok {
			return pipeline.Continue(), fmt.Errorf("unknown upgrade phase %q", *f.Phase)
		}
		job := f.Job(ph.job)
		if out, err := f.R.RunMigration(ctx, f.S, job, ph.running, ph.failed); pipeline.Stops(out, err) {
			return out, err
		}
		if *f.Phase == serviceapi.PhaseContracting {
			return f.complete(job), nil
		}
		f.event(ph.done, "Job %s completed for release %s", job.Name, status.TargetRelease)
		*f.Phase = ph.next
		f.S.SetFalse(conditions.TypeDatabaseReady, ph.nextReason, fmt.Sprintf("upgrade to %s: phase %s", status.TargetRelease, *f.Phase))
	}
}

// complete promotes the target once the contract ran; the pass that moved
// installedRelease asks for the next, which runs db-sync on the new
// release (service.Run).
func (f *Flow) complete(job *batchv1.Job) pipeline.Outcome {
	spec, status := f.S.Spec(), f.S.Status()
	from := status.InstalledRelease
	status.InstalledRelease, status.InstalledImage = status.TargetRelease, spec.Image.Reference()
	status.TargetRelease, *f.Phase = "", ""
	f.S.SetTrue(conditions.TypeDatabaseReady, conditions.ReasonDatabaseSynced, fmt.Sprintf("schema upgraded to release %s", status.InstalledRelease))
	f.event(EventUpgradeComplete, "upgrade from %s to %s complete (Job %s)", from, status.InstalledRelease, job.Name)
	return pipeline.Continue()
}

// abort drops an upgrade whose target was withdrawn: the phase Jobs go, the
// phase and target are cleared and the next pass syncs the installed
// release. Safe before Contracting; a contract already run is not undone.
func (f *Flow) abort(ctx context.Context) (pipeline.Outcome, error) {
	status := f.S.Status()
	for _, p := range []string{Expand, Migrate, Contract} {
		if err := f.deleteJob(ctx, f.Job(p)); err != nil {
			return pipeline.Continue(), err
		}
	}
	target, phase := status.TargetRelease, *f.Phase
	status.TargetRelease, *f.Phase = "", ""
	f.event(EventUpgradeAborted, "upgrade to %s aborted in phase %s: openStackRelease is back at %s", target, phase, status.InstalledRelease)
	f.S.SetFalse(conditions.TypeDatabaseReady, conditions.ReasonDBSyncInProgress, "upgrade aborted; syncing the installed release "+status.InstalledRelease)
	return pipeline.RequeueAfter(RequeueNow), nil
}

func (f *Flow) deleteJob(ctx context.Context, job *batchv1.Job) error {
	c := f.S.Target.Client
	var live batchv1.Job
	if err := c.Get(ctx, client.ObjectKeyFromObject(job), &live); err != nil {
		return client.IgnoreNotFound(err)
	}
	if !f.S.Owner.Owns(&live) {
		return nil
	}
	if err := c.Delete(ctx, &live, client.PropagationPolicy("Background")); client.IgnoreNotFound(err) != nil {
		return fmt.Errorf("deleting Job %s: %w", live.Name, err)
	}
	return nil
}

// refuse reports a refused path on DatabaseReady with a Warning and returns it (backoff).
func (f *Flow) refuse(r *release.Refusal) (pipeline.Outcome, error) {
	return f.R.Refuse(f.S, r)
}

// event records a Normal event of the flow; failures are warned by RunMigration and Refuse.
func (f *Flow) event(reason, format string, args ...any) {
	f.R.Recorder.Eventf(f.S.CR, nil, corev1.EventTypeNormal, reason, "Upgrade", format, args...)
}

// FinishRollout is the Deployment step's part of the flow: in RollingUpdate
// it holds DeploymentReady False until the rollout has fully converged (the
// generation observed, every replica updated, ready and no other left),
// then moves the phase to Contracting and asks for the next pass at once.
// done reports that it decided the step's outcome.
func FinishRollout(r *service.Reconciler, s *service.Scope, phase *string, live *appsv1.Deployment) (out pipeline.Outcome, done bool) {
	if *phase != serviceapi.PhaseRollingUpdate || live == nil {
		return pipeline.Continue(), false
	}
	if !FullyRolledOut(live) {
		s.SetFalse(conditions.TypeDeploymentReady, conditions.ReasonWaitingForDeployment,
			fmt.Sprintf("upgrade to %s: waiting for Deployment %s to roll out every replica", s.Status().TargetRelease, live.Name))
		return pipeline.RequeueAfter(service.RequeueRollout), true
	}
	*phase = serviceapi.PhaseContracting
	r.Recorder.Eventf(s.CR, nil, corev1.EventTypeNormal, EventDeploymentRolloutComplete, "Upgrade",
		"Deployment %s rolled out release %s; contracting the schema", live.Name, s.Status().TargetRelease)
	s.SetTrue(conditions.TypeDeploymentReady, conditions.ReasonDeploymentReady, "API Deployment is available")
	s.SetFalse(conditions.TypeDatabaseReady, ReasonContractInProgress, "upgrade to "+s.Status().TargetRelease+": contracting the schema")
	return pipeline.RequeueAfter(RequeueNow), true
}

// FullyRolledOut reports the current generation observed and updated, ready
// and total replicas all equal to the desired count.
func FullyRolledOut(d *appsv1.Deployment) bool {
	want := int32(1)
	if d.Spec.Replicas != nil {
		want = *d.Spec.Replicas
	}
	st := d.Status
	return d.Generation > 0 && st.ObservedGeneration >= d.Generation &&
		st.UpdatedReplicas == want && st.ReadyReplicas == want && st.Replicas == want
}
