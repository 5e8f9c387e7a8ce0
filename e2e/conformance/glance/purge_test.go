package glance_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/testenv"
	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	"github.com/c5c3/openstack-operators/e2e/poll"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// The rendered db-purge CronJob, run as `kubectl create job --from` runs
// it (a Job from its template, owned by the CronJob), executes the real
// glance-manage db purge and purge_images_table: an image deleted longer
// ago than retentionDays leaves the database, one deleted today stays, a
// live one is untouched; the finished run turns DBPurgeReady True.
func TestDBPurgeRemovesRowsOlderThanTheRetention(t *testing.T) {
	purgeImages := true
	s := newSite(t, "purge", env.Releases[0], func(g *glancev1.Glance) {
		retention := int32(7)
		g.Spec.DBPurge = &glancev1.DBPurgeSpec{RetentionDays: &retention, PurgeImagesTable: &purgeImages}
	})
	a := s.upToReady()
	token, err := env.Keystone.AdminToken()
	poll.Must(t, err)
	api := imageAPI{t: t, url: a.URL, token: token}
	old, recent, live := api.create("old"), api.create("recent"), api.create("live")
	for _, id := range []string{old, recent} {
		api.expect(http.StatusNoContent, http.MethodDelete, "v2/images/"+id, nil, nil)
	}
	_, err = env.DB.Query(fmt.Sprintf("UPDATE %s.images SET deleted_at = NOW() - INTERVAL 40 DAY WHERE id = '%s'", s.Schema, old))
	poll.Must(t, err)
	if got := s.imageRows(); !slices.Equal(got, sorted(old, recent, live)) {
		t.Fatalf("before the purge the images table holds %v", got)
	}

	var cj batchv1.CronJob
	poll.Until(t, harness.WaitLong, func() error {
		return env.K8s.Get(t.Context(), client.ObjectKey{Namespace: s.ns, Name: s.name + "-db-purge"}, &cj)
	})
	job := testenv.JobFromCronJob(&cj, cj.Name+"-manual")
	poll.Must(t, env.K8s.Create(t.Context(), job))
	code, log, err := env.RunJob(t, job, nil, harness.WaitLong)
	if err != nil || code != 0 {
		t.Fatalf("db-purge Job failed (code %d, %v):\n%s", code, err, log)
	}
	if got := s.imageRows(); !slices.Equal(got, sorted(recent, live)) {
		t.Errorf("after the purge the images table holds %v, want the recently deleted %s and the live %s", got, recent, live)
	}
	poll.Must(t, testenv.JobFinished(t.Context(), env.K8s, client.ObjectKeyFromObject(job), true))
	poll.Until(t, harness.WaitLong, func() error {
		c := env.WaitCondition(t, s.glance(), glancev1.ConditionDBPurgeReady, metav1.ConditionTrue)
		if !strings.Contains(c.Message, job.Name) {
			return fmt.Errorf("DBPurgeReady %q does not report the run %s", c.Message, job.Name)
		}
		return nil
	})
}

// imageRows lists the IDs in the site's images table, deleted or not.
func (s *site) imageRows() []string {
	s.t.Helper()
	out, err := env.DB.Query("SELECT id FROM " + s.Schema + ".images ORDER BY id")
	poll.Must(s.t, err)
	return strings.Fields(out)
}

func sorted(ids ...string) []string {
	slices.Sort(ids)
	return ids
}
