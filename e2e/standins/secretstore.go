package standins

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/log"
)

// ESO stores are handled as unstructured: ESO's Go API does not build against
// our controller-runtime, and only status.conditions is touched.
var (
	esoGroupVersion       = schema.GroupVersion{Group: "external-secrets.io", Version: "v1"}
	ClusterSecretStoreGVK = esoGroupVersion.WithKind("ClusterSecretStore")
	SecretStoreGVK        = esoGroupVersion.WithKind("SecretStore")
)

// What ESO writes once a store's provider validated.
const (
	storeReason  = "Valid"
	storeMessage = "store validated"
)

// SecretStore plays ESO for one store kind (ClusterSecretStore or
// SecretStore): it reports the store Ready without contacting any provider,
// so no ExternalSecret is ever synced; credential Secrets are created directly.
type SecretStore struct {
	Client client.Client
	GVK    schema.GroupVersionKind
}

// NewSecretStores returns the stand-ins for both ESO store kinds.
func NewSecretStores(c client.Client) []*SecretStore {
	return []*SecretStore{{Client: c, GVK: ClusterSecretStoreGVK}, {Client: c, GVK: SecretStoreGVK}}
}

func (r *SecretStore) object() *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetGroupVersionKind(r.GVK)
	return u
}

// Reconcile sets status.conditions[type=Ready] to True unless it already is.
func (r *SecretStore) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	u := r.object()
	if err := r.Client.Get(ctx, req.NamespacedName, u); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !u.GetDeletionTimestamp().IsZero() {
		return ctrl.Result{}, nil
	}
	conds, _, err := unstructured.NestedSlice(u.Object, "status", "conditions")
	if err != nil {
		return ctrl.Result{}, fmt.Errorf("reading conditions of %s %s: %w", r.GVK.Kind, req.NamespacedName, err)
	}
	// ESO keeps one entry per type; replace Ready in place, keep the others.
	ready := map[string]any{
		"type": ConditionReady, "status": "True", "reason": storeReason, "message": storeMessage,
		"lastTransitionTime": time.Now().UTC().Format(time.RFC3339),
	}
	next := make([]any, 0, len(conds)+1)
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] != ConditionReady {
			next = append(next, c)
			continue
		}
		if m["status"] == "True" {
			return ctrl.Result{}, nil
		}
	}
	next = append(next, ready)
	base := u.DeepCopy()
	if err := unstructured.SetNestedSlice(u.Object, next, "status", "conditions"); err != nil {
		return ctrl.Result{}, err
	}
	if err := r.Client.Status().Patch(ctx, u, client.MergeFrom(base)); err != nil {
		return ctrl.Result{}, fmt.Errorf("marking %s %s Ready: %w", r.GVK.Kind, req.NamespacedName, err)
	}
	log.FromContext(ctx).Info("marked Ready")
	return ctrl.Result{}, nil
}

// SetupWithManager watches the store kind.
func (r *SecretStore) SetupWithManager(mgr ctrl.Manager) error {
	return ctrl.NewControllerManagedBy(mgr).For(r.object()).Named(controllerName(r.GVK.Kind)).Complete(r)
}
