package webhook

import (
	"cmp"
	"context"
	"strings"
	"testing"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/shared"
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
	cases := []struct {
		name     string
		old, mut func(b *barbicanv1.Barbican) // old nil: create
		want     []string
	}{
		{name: "retention lowered from the default", old: func(*barbicanv1.Barbican) {}, mut: retention(30),
			want: []string{"spec.dbClean.retentionDays lowered from 90 to 30 days"}},
		{name: "retention lowered", old: retention(60), mut: retention(59),
			want: []string{"lowered from 60 to 59 days (90 when unset): the next db-clean run permanently deletes soft-deleted rows older than 59 days"}},
		{name: "retention back to the default from above", old: retention(120), mut: func(b *barbicanv1.Barbican) { b.Spec.DBClean = nil },
			want: []string{"lowered from 120 to 90 days"}},
		{name: "retention raised", old: retention(7), mut: retention(8)},
		{name: "retention unset to unset", old: func(*barbicanv1.Barbican) {}, mut: func(b *barbicanv1.Barbican) { b.Spec.Region = "R" }},
		{name: "low retention on create", mut: retention(1)},
		{name: "brownfield first run", mut: brownfieldDB,
			want: []string{"spec.database.host names an existing database and spec.dbClean.suspend is not true: once the first " +
				"db-sync succeeds, the db-clean CronJob permanently deletes soft-deleted rows older than 90 days from it; " +
				"set spec.dbClean.suspend: true"}},
		{name: "brownfield first run, own retention", mut: func(b *barbicanv1.Barbican) {
			brownfieldDB(b)
			b.Spec.DBClean = &barbicanv1.DBCleanSpec{RetentionDays: new(int32(400))}
		}, want: []string{"older than 400 days"}},
		{name: "brownfield, suspended", mut: func(b *barbicanv1.Barbican) {
			brownfieldDB(b)
			b.Spec.DBClean = &barbicanv1.DBCleanSpec{Suspend: true}
		}},
		{name: "brownfield on update", old: brownfieldDB, mut: func(b *barbicanv1.Barbican) { b.Spec.Region = "R" }},
		{name: "catalog skipped: no catalog for the release", mut: func(b *barbicanv1.Barbican) {
			b.Spec.OpenStackRelease = "2027.1"
			b.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"a": "1"}, "nova": {"b": "2"}}
		}, want: []string{"no option catalog for barbican release 2027.1; extraConfig options not checked"}},
		{name: "catalog skipped: release unparseable", mut: func(b *barbicanv1.Barbican) {
			b.Spec.OpenStackRelease = "2009.1"
			b.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"a": "1"}}
		}, want: []string{"no option catalog for barbican release 2009.1"}},
		{name: "no catalog, no extraConfig: nothing skipped", mut: func(b *barbicanv1.Barbican) { b.Spec.OpenStackRelease = "2027.1" }},
		{name: "no catalog, extraConfig emptied on update", old: func(b *barbicanv1.Barbican) {
			b.Spec.OpenStackRelease = "2027.1"
			b.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"a": "1"}}
		}, mut: func(b *barbicanv1.Barbican) { b.Spec.ExtraConfig = nil }},
		{name: "deprecated option with replacement", mut: func(b *barbicanv1.Barbican) {
			b.Spec.ExtraConfig = map[string]map[string]string{"keystone_authtoken": {"memcache_servers": "m:11211"}}
		}, want: []string{"[keystone_authtoken] memcache_servers is deprecated, replaced by [keystone_authtoken] memcached_servers"}},
		{name: "all at once", mut: func(b *barbicanv1.Barbican) {
			brownfieldDB(b)
			b.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"logdir": "/var/log"}}
			b.Spec.APIServer = &barbicanv1.APIServerSpec{UWSGI: &shared.UWSGISpec{}}
		}, want: []string{"spec.database.host names an existing database", "[DEFAULT] logdir is deprecated, replaced by [DEFAULT] log_dir"}},
	}
	v := barbicanValidator(t, nil)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var old *barbicanv1.Barbican
			if tc.old != nil {
				old = valid()
				tc.old(old)
			}
			b := cmp.Or(old, valid()).DeepCopy() // an update starts from the old object
			tc.mut(b)
			w, err := v.Validate(context.Background(), b, old)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			matches := len(w) == len(tc.want)
			for i := 0; matches && i < len(w); i++ {
				matches = strings.Contains(w[i], tc.want[i])
			}
			if !matches {
				t.Errorf("warnings = %q, want one per substring of %q", w, tc.want)
			}
		})
	}
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
