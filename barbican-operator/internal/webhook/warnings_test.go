package webhook

import (
	"testing"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	at "github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

func retention(days int32) func(b *barbicanv1.Barbican) {
	return func(b *barbicanv1.Barbican) { b.Spec.DBClean = &barbicanv1.DBCleanSpec{RetentionDays: new(days)} }
}

// brownfieldDB points the Barbican at an existing database server.
func brownfieldDB(b *barbicanv1.Barbican) {
	b.Spec.Database.ClusterRef, b.Spec.Database.Host = nil, "db.example.org"
}

// Every warning of barbican-api.md §3.2, through the whole validator; want
// is one substring per warning, in order.
func TestValidatorWarnings(t *testing.T) {
	cases := []at.WarningCase[*barbicanv1.Barbican]{
		{Name: "retention lowered from the default", Old: func(*barbicanv1.Barbican) {}, Mut: retention(30),
			Want: []string{"spec.dbClean.retentionDays lowered from 90 to 30 days"}},
		{Name: "retention lowered", Old: retention(60), Mut: retention(59),
			Want: []string{"lowered from 60 to 59 days (90 when unset): the next db-clean run permanently deletes soft-deleted rows older than 59 days"}},
		{Name: "retention back to the default from above", Old: retention(120), Mut: func(b *barbicanv1.Barbican) { b.Spec.DBClean = nil },
			Want: []string{"lowered from 120 to 90 days"}},
		{Name: "retention raised", Old: retention(7), Mut: retention(8)},
		{Name: "retention unset to unset", Old: func(*barbicanv1.Barbican) {}, Mut: func(b *barbicanv1.Barbican) { b.Spec.Region = "R" }},
		{Name: "low retention on create", Mut: retention(1)},
		{Name: "brownfield first run", Mut: brownfieldDB,
			Want: []string{"spec.database.host names an existing database and spec.dbClean.suspend is not true: once the first " +
				"db-sync succeeds, the db-clean CronJob permanently deletes soft-deleted rows older than 90 days from it; " +
				"set spec.dbClean.suspend: true"}},
		{Name: "brownfield first run, own retention", Mut: func(b *barbicanv1.Barbican) {
			brownfieldDB(b)
			b.Spec.DBClean = &barbicanv1.DBCleanSpec{RetentionDays: new(int32(400))}
		}, Want: []string{"older than 400 days"}},
		{Name: "brownfield, suspended", Mut: func(b *barbicanv1.Barbican) {
			brownfieldDB(b)
			b.Spec.DBClean = &barbicanv1.DBCleanSpec{Suspend: true}
		}},
		{Name: "brownfield on update", Old: brownfieldDB, Mut: func(b *barbicanv1.Barbican) { b.Spec.Region = "R" }},
		{Name: "catalog skipped: no catalog for the release", Mut: func(b *barbicanv1.Barbican) {
			b.Spec.OpenStackRelease = "2027.1"
			b.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"a": "1"}, "nova": {"b": "2"}}
		}, Want: []string{"no option catalog for barbican release 2027.1; extraConfig options not checked"}},
		{Name: "catalog skipped: release unparseable", Mut: func(b *barbicanv1.Barbican) {
			b.Spec.OpenStackRelease = "2009.1"
			b.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"a": "1"}}
		}, Want: []string{"no option catalog for barbican release 2009.1"}},
		{Name: "no catalog, no extraConfig: nothing skipped", Mut: func(b *barbicanv1.Barbican) { b.Spec.OpenStackRelease = "2027.1" }},
		{Name: "no catalog, extraConfig emptied on update", Old: func(b *barbicanv1.Barbican) {
			b.Spec.OpenStackRelease = "2027.1"
			b.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"a": "1"}}
		}, Mut: func(b *barbicanv1.Barbican) { b.Spec.ExtraConfig = nil }},
		{Name: "deprecated option with replacement", Mut: func(b *barbicanv1.Barbican) {
			b.Spec.ExtraConfig = map[string]map[string]string{"keystone_authtoken": {"memcache_servers": "m:11211"}}
		}, Want: []string{"[keystone_authtoken] memcache_servers is deprecated, replaced by [keystone_authtoken] memcached_servers"}},
		{Name: "all at once", Mut: func(b *barbicanv1.Barbican) {
			brownfieldDB(b)
			b.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"logdir": "/var/log"}}
			b.Spec.APIServer = &barbicanv1.APIServerSpec{UWSGI: &serviceapi.UWSGISpec{}}
		}, Want: []string{"spec.database.host names an existing database", "[DEFAULT] logdir is deprecated, replaced by [DEFAULT] log_dir"}},
	}
	v := barbicanValidator(t, nil)
	at.Warnings(t, valid, v.Validate, cases)
}

// Warnings alone, for the two Barbican computes itself: the effective
// retention compares unset as 90.
func TestWarningsRetentionEffective(t *testing.T) {
	old, b := valid(), valid()
	b.Spec.DBClean = &barbicanv1.DBCleanSpec{RetentionDays: new(int32(90))}
	if w := Warnings(b, old); len(w) != 0 {
		t.Errorf("unset -> 90: %q", w)
	}
	b.Spec.DBClean.RetentionDays = new(int32(89))
	if w := Warnings(b, old); len(w) != 1 {
		t.Errorf("unset -> 89: %q", w)
	}
}
