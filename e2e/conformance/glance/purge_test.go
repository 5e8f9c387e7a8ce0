package glance_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"

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
	api := imageAPI{harness.Client{T: t, URL: a.URL, Token: token}}
	old, recent, live := api.create("old"), api.create("recent"), api.create("live")
	for _, id := range []string{old, recent} {
		api.Expect(http.StatusNoContent, http.MethodDelete, "v2/images/"+id, nil, nil)
	}
	_, err = env.DB.Query(fmt.Sprintf("UPDATE %s.images SET deleted_at = NOW() - INTERVAL 40 DAY WHERE id = '%s'", s.Schema, old))
	poll.Must(t, err)
	if got := s.imageRows(); !slices.Equal(got, sorted(old, recent, live)) {
		t.Fatalf("before the purge the images table holds %v", got)
	}

	job := env.RunCronJob(t, client.ObjectKey{Namespace: s.ns, Name: s.name + "-db-purge"})
	if got := s.imageRows(); !slices.Equal(got, sorted(recent, live)) {
		t.Errorf("after the purge the images table holds %v, want the recently deleted %s and the live %s", got, recent, live)
	}
	env.ReportsRun(t, s.glance(), glancev1.ConditionDBPurgeReady, job)
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
