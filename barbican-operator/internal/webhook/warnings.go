package webhook

import (
	"fmt"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
)

// Warnings are Barbican's own admission warnings (barbican-api.md §3.2):
// a lowered clean retention on update, and a brownfield database about to
// be cleaned on create. The catalog warnings come with the extraConfig
// check. old is nil on create.
func Warnings(b, old *barbicanv1.Barbican) []string {
	var out []string
	if old == nil && brownfield(b) && !b.Spec.DBClean.Suspended() {
		days := b.Spec.DBClean.EffectiveRetentionDays()
		out = append(out, fmt.Sprintf("spec.database.host names an existing database and spec.dbClean.suspend is not true: "+
			"once the first db-sync succeeds, the db-clean CronJob permanently deletes soft-deleted rows older than %d days "+
			"from it; set spec.dbClean.suspend: true to review the data before the first run", days))
	}
	if old != nil {
		was, now := old.Spec.DBClean.EffectiveRetentionDays(), b.Spec.DBClean.EffectiveRetentionDays()
		if now < was {
			out = append(out, fmt.Sprintf("spec.dbClean.retentionDays lowered from %d to %d days (%d when unset): "+
				"the next db-clean run permanently deletes soft-deleted rows older than %d days", was, now,
				barbicanv1.DefaultDBCleanRetentionDays, now))
		}
	}
	return out
}

// brownfield reports a database the operator does not provision
// (spec.database.host, no clusterRef).
func brownfield(b *barbicanv1.Barbican) bool {
	d := b.Spec.Database
	return d.Host != "" && d.ClusterRef == nil
}
