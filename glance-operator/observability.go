package glance

import "github.com/c5c3/openstack-operators/common/lib/observability"

// observe: Glance's db_sync series also count the expand, migrate and
// contract Jobs of a rolling upgrade.
func observe(s *observability.Spec) {
	s.Jobs[0].Title = "db-sync, expand, migrate or contract"
	s.Jobs[0].Runbook = "During an upgrade the CR's status.upgradePhase and its ExpandFailed, MigrateFailed or " +
		"ContractFailed event name the Job (docs/glance/upgrades.md); otherwise its DatabaseReady condition and " +
		"DBSyncFailed event do. The Job's pod log says why the schema step failed."
}
