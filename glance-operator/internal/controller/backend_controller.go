package controller

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/attach"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	"github.com/c5c3/openstack-operators/common/framework/secrets"
	"github.com/c5c3/openstack-operators/common/framework/targetcluster"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// requeueBackend is the backstop of the backend controller's waits.
const requeueBackend = 15 * time.Second

// BackendReconciler is the single writer of GlanceBackend status. It emits
// no events and has no finalizer: the operator provisions nothing on S3.
type BackendReconciler struct {
	// Client reads and writes the management cluster (backends, their Glance).
	Client client.Client
	// Resolver maps the parent Glance's target cluster, where the
	// credentials Secret and the Deployment live.
	Resolver *targetcluster.Resolver
}

// Reconcile computes CredentialsReady, ConfigProjected and Ready.
func (r *BackendReconciler) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	var b glancev1.GlanceBackend
	if err := r.Client.Get(ctx, req.NamespacedName, &b); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !b.DeletionTimestamp.IsZero() {
		return ctrl.Result{}, nil
	}
	before := *b.Status.DeepCopy()
	wait, err := r.evaluate(ctx, &b)
	if err != nil {
		return ctrl.Result{}, err
	}
	attach.Aggregate(&b.Status.Conditions, b.Generation, "credentials available and store projected",
		glancev1.ConditionCredentialsReady, glancev1.ConditionConfigProjected)
	b.Status.ObservedGeneration = b.Generation
	if !equality.Semantic.DeepEqual(before, b.Status) {
		// A conflict means the pass read from a cache one write behind: the
		// newer object's event runs it again, so it is not an error to log.
		if err := r.Client.Status().Update(ctx, &b); err != nil && !apierrors.IsConflict(err) {
			return ctrl.Result{}, fmt.Errorf("updating GlanceBackend status: %w", err)
		}
	}
	if wait {
		return ctrl.Result{RequeueAfter: requeueBackend}, nil
	}
	return ctrl.Result{}, nil
}

// evaluate sets CredentialsReady and ConfigProjected; wait asks for the backstop requeue.
func (r *BackendReconciler) evaluate(ctx context.Context, b *glancev1.GlanceBackend) (wait bool, err error) {
	conds, gen := &b.Status.Conditions, b.Generation
	var g glancev1.Glance
	err = r.Client.Get(ctx, client.ObjectKey{Namespace: b.Namespace, Name: b.Spec.GlanceRef.Name}, &g)
	if apierrors.IsNotFound(err) {
		conditions.False(conds, gen, glancev1.ConditionCredentialsReady, glancev1.ReasonWaitingForParent,
			fmt.Sprintf("Glance %s does not exist", b.Spec.GlanceRef.Name))
		conditions.False(conds, gen, glancev1.ConditionConfigProjected, glancev1.ReasonWaitingForProjection, "no parent Glance projects the store")
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("reading Glance %s: %w", b.Spec.GlanceRef.Name, err)
	}
	t, err := r.Resolver.Resolve(ctx, client.ObjectKeyFromObject(&g), g.Spec.TargetClusterRef)
	if err != nil {
		conditions.False(conds, gen, glancev1.ConditionCredentialsReady, conditions.ReasonTargetClusterUnavailable, err.Error())
		setProjected(conds, gen, false, "the parent Glance's target cluster is unavailable")
		return true, nil
	}
	if ok, msg, err := credentialsReady(ctx, t.Client, b); err != nil {
		return false, err
	} else if !ok {
		conditions.False(conds, gen, glancev1.ConditionCredentialsReady, glancev1.ReasonWaitingForCredentials, msg)
		wait = true
	} else {
		conditions.True(conds, gen, glancev1.ConditionCredentialsReady, glancev1.ReasonCredentialsAvailable, msg)
	}
	projected, msg, err := attach.Projected(ctx, t, attach.Mount{
		Namespace: g.Namespace, Deployment: g.Name, Volume: render.BackendsVolume, Key: render.KeyBackendsConf, Line: "[" + b.Name + "]",
	})
	if err != nil {
		return false, err
	}
	setProjected(conds, gen, projected, msg)
	return wait || !projected, nil
}

func credentialsReady(ctx context.Context, reader client.Reader, b *glancev1.GlanceBackend) (bool, string, error) {
	if b.Spec.S3 == nil {
		return false, "spec.s3 is not set", nil
	}
	name := b.Spec.S3.CredentialsSecretRef.Name
	s, msg, err := secrets.Usable(ctx, reader, b.Namespace, name, glancev1.S3AccessKeyID, glancev1.S3SecretAccessKey)
	if err != nil {
		return false, "", fmt.Errorf("reading credentials Secret %s: %w", name, err)
	}
	if s == nil {
		return false, msg, nil
	}
	return true, fmt.Sprintf("Secret %s holds %s and %s", name, glancev1.S3AccessKeyID, glancev1.S3SecretAccessKey), nil
}

func setProjected(conds *[]metav1.Condition, gen int64, ok bool, msg string) {
	if ok {
		conditions.True(conds, gen, glancev1.ConditionConfigProjected, glancev1.ReasonConfigProjected, msg)
		return
	}
	conditions.False(conds, gen, glancev1.ConditionConfigProjected, glancev1.ReasonWaitingForProjection, msg)
}

// SetupWithManager registers the backend controller; the Glance controller's
// setup has registered the indexes it uses. It watches the parent Glance
// and its Deployment with no generation filter (the store landing in the
// Deployment is the wake signal of ConfigProjected), and the credentials
// Secrets, on the management cluster and on every target cluster the
// resolver engages.
func (r *BackendReconciler) SetupWithManager(mgr ctrl.Manager, opts managerconfig.ControllerOptions) error {
	w := parents(r.Client).Watches(render.ManagedBy)
	b := attach.For(mgr, "glancebackend", &glancev1.GlanceBackend{}).WithOptions(opts.Controller())
	if err := w.Complete(b, &glancev1.Glance{}, r, r.Resolver); err != nil {
		return fmt.Errorf("building glancebackend controller: %w", err)
	}
	return nil
}
