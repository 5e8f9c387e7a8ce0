package dbsync

import (
	"context"
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/metrics"
)

// LastJobUIDAnnotation on the CR remembers the last Job counted in the metrics.
const LastJobUIDAnnotation = "operators.c5c3.io/last-db-sync-job-uid"

// Results of the db_sync_total counter.
const (
	ResultSucceeded = "succeeded"
	ResultFailed    = "failed"
)

// Record counts a terminal Job once per UID: it first patches the UID onto
// the CR (merge patch with optimistic lock), then observes. A failed patch
// returns an error and counts nothing, so the next pass retries.
func Record(ctx context.Context, c client.Client, cr client.Object, job *batchv1.Job, m *metrics.Set, result string) error {
	uid := string(job.UID)
	if cr.GetAnnotations()[LastJobUIDAnnotation] == uid {
		return nil
	}
	// Patch a copy: the response carries the stored status, which must not
	// overwrite the conditions this pass has set on cr.
	base := cr.DeepCopyObject().(client.Object)
	target := cr.DeepCopyObject().(client.Object)
	ann := map[string]string{}
	for k, v := range cr.GetAnnotations() {
		ann[k] = v
	}
	ann[LastJobUIDAnnotation] = uid
	target.SetAnnotations(ann)
	patch := client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})
	if err := c.Patch(ctx, target, patch); err != nil {
		return fmt.Errorf("recording db-sync Job %s on %s: %w", job.Name, cr.GetName(), err)
	}
	cr.SetAnnotations(target.GetAnnotations())
	cr.SetResourceVersion(target.GetResourceVersion())
	m.ObserveDBSync(cr.GetName(), cr.GetNamespace(), result, Duration(job))
	return nil
}
