package placement_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"

	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/poll"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

// TestDBSyncIsIdempotent: the Job's script migrates an empty schema and
// succeeds again on the migrated one.
func TestDBSyncIsIdempotent(t *testing.T) {
	s := newSite(t, "dbsync-twice", "2025.2", nil)
	j := s.job()
	for _, run := range []string{"empty schema", "migrated schema"} {
		if code, log, err := s.runJob(j, localsvc.RunTimeout); err != nil || code != 0 {
			t.Fatalf("db-sync on the %s: code %d, %v\n%s", run, code, err, log)
		}
	}
	tables, err := env.DB.Query("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = '" + s.Schema + "'")
	poll.Must(t, err)
	if tables == "0" {
		t.Fatal("db-sync succeeded but created no table")
	}
}

// TestDBSyncFailsOnWrongPassword: a credential the server refuses fails
// the Job instead of being retried.
func TestDBSyncFailsOnWrongPassword(t *testing.T) {
	s := newSite(t, "dbsync-badpw", "2025.2", nil)
	j := s.job()
	_, err := env.DB.Query(fmt.Sprintf("ALTER USER '%s'@'127.0.0.1' IDENTIFIED BY 'not-what-the-secret-says'", s.DBUser))
	poll.Must(t, err)
	code, log, err := s.runJob(j, localsvc.RunTimeout)
	if err != nil {
		t.Fatalf("db-sync with a refused password did not end: %v\n%s", err, log)
	}
	if code == 0 || !strings.Contains(log, "Access denied") {
		t.Fatalf("db-sync with a refused password: code %d, want non-zero and the server's refusal\n%s", code, log)
	}
}

// TestDBSyncOnUnreachableDatabase: with the rendered max_retries = -1 the
// Job keeps retrying (its pod stays Running, the operator waits); with
// max_retries overridden through extraConfig it fails.
func TestDBSyncOnUnreachableDatabase(t *testing.T) {
	closed, err := localsvc.FreePort()
	poll.Must(t, err)
	unreachable := func(p *placementv1.Placement) { p.Spec.Database.Port = int32(closed) }

	s := newSite(t, "dbsync-down", "2025.2", unreachable)
	code, log, err := s.runJob(s.job(), 15*time.Second)
	if err == nil {
		t.Fatalf("db-sync against a closed port ended (code %d); the rendered max_retries = -1 should keep it retrying\n%s", code, log)
	}
	if !strings.Contains(log, "SQL connection failed") {
		t.Fatalf("db-sync against a closed port is not retrying the connection:\n%s", log)
	}

	s = newSite(t, "dbsync-down-noretry", "2025.2", func(p *placementv1.Placement) {
		unreachable(p)
		p.Spec.ExtraConfig = map[string]map[string]string{"placement_database": {"max_retries": "0"}}
	})
	code, log, err = s.runJob(s.job(), localsvc.RunTimeout)
	if err != nil || code == 0 {
		t.Fatalf("db-sync against a closed port with max_retries = 0: code %d, %v; want a failure\n%s", code, err, log)
	}
}

// TestDBSyncUpgradeCheck: the script tolerates placement-status's warning
// (exit 1) and fails on its failure (exit 2). The real placement-status
// runs; to provoke its findings, placement-manage is wrapped so that right
// after the real online_data_migrations (which would repair both) the
// schema gets a row the check reports.
func TestDBSyncUpgradeCheck(t *testing.T) {
	cases := []struct {
		name   string
		sql    string
		wantOK bool
	}{{
		// An allocation whose consumer row is missing: "Incomplete Consumers", a warning.
		name: "warning", wantOK: true,
		sql: "INSERT INTO resource_providers (id, uuid, name, generation, root_provider_id, created_at) VALUES (9001, 'a0000000-0000-0000-0000-000000000001', 'cf-rp', 0, 9001, NOW());" +
			"INSERT INTO allocations (resource_provider_id, consumer_id, resource_class_id, used, created_at) VALUES (9001, 'c0000000-0000-0000-0000-000000000001', 0, 1, NOW());",
	}, {
		// A provider without a root provider id: "Missing Root Provider IDs", a failure.
		name: "failure", wantOK: false,
		sql: "INSERT INTO resource_providers (id, uuid, name, generation, root_provider_id, created_at) VALUES (9002, 'a0000000-0000-0000-0000-000000000002', 'cf-rp-noroot', 0, NULL, NOW());",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSite(t, "upgrade-check-"+tc.name, "2025.2", nil)
			j := s.job()
			code, log, err := s.runJobWith(j, corruptAfterMigrations(t, s.Schema, tc.sql))
			if err != nil {
				t.Fatal(err)
			}
			if ok := code == 0; ok != tc.wantOK {
				t.Fatalf("db-sync after a placement-status %s: code %d, want success %v\n%s", tc.name, code, tc.wantOK, log)
			}
			if !strings.Contains(log, map[bool]string{true: "Warning", false: "Failure"}[tc.wantOK]) {
				t.Fatalf("placement-status did not report the %s:\n%s", tc.name, log)
			}
		})
	}
}

// corruptAfterMigrations writes a placement-manage wrapper that runs the
// real one and, after online_data_migrations, executes sql in schema. It
// returns the directory to put first on PATH.
func corruptAfterMigrations(t *testing.T, schema, sql string) string {
	dir := t.TempDir()
	script := fmt.Sprintf(`#!/bin/sh
/usr/bin/placement-manage "$@" || exit $?
case "$*" in *online_data_migrations*)
  exec mariadb --no-defaults --skip-ssl -S %q -u root %q -e %q ;;
esac
`, env.DB.Socket, schema, sql)
	poll.Must(t, os.WriteFile(filepath.Join(dir, "placement-manage"), []byte(script), 0o755))
	return dir
}

// runJobWith runs the Job with pathFirst put before the system's PATH.
func (s *site) runJobWith(j *batchv1.Job, pathFirst string) (int, string, error) {
	s.t.Helper()
	ct := env.PrepareJob(s.t, j)
	defer ct.Release()
	ct.Env = append(ct.Env, "PATH="+pathFirst+":/usr/sbin:/usr/bin:/sbin:/bin")
	return ct.Run(ct.Dir, localsvc.RunTimeout)
}
