package barbican_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/e2e/conformance/harness"
	"github.com/c5c3/openstack-operators/e2e/poll"
)

// The rendered db-clean CronJob, run as `kubectl create job --from` runs it
// (a Job from its template, owned by the CronJob), executes the real
// barbican-manage db clean with the CronJob's argv: a secret deleted
// through the API longer ago than retentionDays leaves the database, one
// deleted today stays, a live one is untouched; the finished run turns
// DBCleanReady True with its name.
func TestDBCleanRemovesSecretsOlderThanTheRetention(t *testing.T) {
	s := newSite(t, "clean", env.Releases[0], 0, func(b *barbicanv1.Barbican) {
		b.Spec.DBClean = &barbicanv1.DBCleanSpec{RetentionDays: ptr.To(int32(7))}
	})
	a := s.upToReady()
	token, err := env.Keystone.AdminToken()
	poll.Must(t, err)
	api := keyManager{harness.Client{T: t, URL: a.URL, Token: token}}
	old, recent, live := api.store("old", randomPayload(t)), api.store("recent", randomPayload(t)), api.store("live", randomPayload(t))
	for _, id := range []string{old, recent} {
		api.Expect(http.StatusNoContent, http.MethodDelete, "v1/secrets/"+id, nil, nil)
	}
	s.deletedDaysAgo(old, 40)
	if got := s.secretRows(); got != "live:0 old:1 recent:1" {
		t.Fatalf("before the clean the secrets table holds %s", got)
	}

	job := env.RunCronJob(t, client.ObjectKey{Namespace: s.ns, Name: s.name + "-db-clean"})
	if got := s.secretRows(); got != "live:0 recent:1" {
		t.Errorf("after the clean the secrets table holds %s, want the recently deleted and the live secret", got)
	}
	if got := api.payload(live); got == "" {
		t.Error("the live secret lost its payload")
	}
	env.ReportsRun(t, s.barbican(), barbicanv1.ConditionDBCleanReady, job)
}

// deletedDaysAgo moves the deletion of secret id, and of the rows deleted
// with it (store and user metadata, encrypted data), days into the past.
func (s *site) deletedDaysAgo(id string, days int) {
	s.t.Helper()
	tables, err := env.DB.Query("SELECT DISTINCT c.table_name FROM information_schema.columns c JOIN information_schema.columns d " +
		"ON d.table_schema = c.table_schema AND d.table_name = c.table_name AND d.column_name = 'deleted_at' " +
		"WHERE c.table_schema = '" + s.Schema + "' AND c.column_name = 'secret_id'")
	poll.Must(s.t, err)
	for _, table := range strings.Fields(tables) {
		_, err := env.DB.Query(fmt.Sprintf("UPDATE %s.%s SET deleted_at = NOW() - INTERVAL %d DAY WHERE secret_id = '%s' AND deleted = 1", s.Schema, table, days, id))
		poll.Must(s.t, err)
	}
	_, err = env.DB.Query(fmt.Sprintf("UPDATE %s.secrets SET deleted_at = NOW() - INTERVAL %d DAY WHERE id = '%s'", s.Schema, days, id))
	poll.Must(s.t, err)
}

// secretRows lists name:deleted of the site's secrets table.
func (s *site) secretRows() string {
	s.t.Helper()
	out, err := env.DB.Query("SELECT CONCAT(name, ':', deleted) FROM " + s.Schema + ".secrets ORDER BY name")
	poll.Must(s.t, err)
	return strings.Join(strings.Fields(out), " ")
}
