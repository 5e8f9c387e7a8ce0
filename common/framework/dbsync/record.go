package dbsync

import (
	"context"
	"fmt"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/metrics"
)

// LastJobUIDAnnotation on the CR remembers the last migration Job counted in the metrics.
const LastJobUIDAnnotation = "operators.c5c3.io/last-db-sync-job-uid"

// Results of the Job counters.
const (
	ResultSucceeded = "succeeded"
	ResultFailed    = "failed"
)

// The parts of a UIDAnnotation around its Job name suffix.
const (
	uidAnnotationPrefix = "operators.c5c3.io/last-"
	uidAnnotationSuffix = "-job-uid"
)

// UIDAnnotation is operators.c5c3.io/last-<suffix>-job-uid: the last Job
// counted of one Job name suffix (db-sync, db-expand, db-purge, ...). One
// per suffix, so Jobs of several names never count one another twice.
func UIDAnnotation(suffix string) string {
	return uidAnnotationPrefix + suffix + uidAnnotationSuffix
}

// IsUIDAnnotation tells whether key is a UIDAnnotation: the operator's own
// bookkeeping, written by the pass that goes on with the object it wrote.
func IsUIDAnnotation(key string) bool {
	return len(key) > len(uidAnnotationPrefix)+len(uidAnnotationSuffix) &&
		strings.HasPrefix(key, uidAnnotationPrefix) && strings.HasSuffix(key, uidAnnotationSuffix)
}

// Record counts a terminal migration Job (db-sync or an upgrade phase,
// named <cr>-<suffix>) once per UID in the db_sync series (see RecordAs).
func Record(ctx context.Context, c client.Client, cr client.Object, job *batchv1.Job, m *metrics.Set, result string) error {
	return RecordAs(ctx, c, cr, job, m, metrics.JobDBSync, strings.TrimPrefix(job.Name, cr.GetName()+"-"), result)
}

// RecordAs counts a terminal Job once per UID in the series of kind (a
// metrics Job kind), remembered under the annotation of suffix: it first
// patches the UID onto the CR (merge patch with optimistic lock), then
// observes. A failed patch returns an error and counts nothing, so the next
// pass retries.
func RecordAs(ctx context.Context, c client.Client, cr client.Object, job *batchv1.Job, m *metrics.Set, kind, suffix, result string) error {
	key, uid := UIDAnnotation(suffix), string(job.UID)
	if cr.GetAnnotations()[key] == uid {
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
	ann[key] = uid
	target.SetAnnotations(ann)
	patch := client.MergeFromWithOptions(base, client.MergeFromWithOptimisticLock{})
	if err := c.Patch(ctx, target, patch); err != nil {
		return fmt.Errorf("recording %s Job %s on %s: %w", suffix, job.Name, cr.GetName(), err)
	}
	cr.SetAnnotations(target.GetAnnotations())
	cr.SetResourceVersion(target.GetResourceVersion())
	m.ObserveJob(kind, cr.GetName(), cr.GetNamespace(), result, Duration(job))
	return nil
}
