package localsvc

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	e2epoll "github.com/c5c3/openstack-operators/e2e/poll"
)

// A server starting beside another leaves the other's on-disk temporary
// tables alone: MariaDB deletes every "#sql*" file of its tmpdir when it
// starts, so the servers must not share one (they shared /tmp, and a suite
// failed with "Error on delete of '/tmp/#sql-temptable-…MAI'" when another
// job's server started during its query).
func TestMariaDBStartKeepsAnotherServersTemporaryTables(t *testing.T) {
	a, err := StartMariaDB()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Stop() })
	tmpdir, err := a.Query("SELECT @@tmpdir")
	if err != nil {
		t.Fatal(err)
	}

	// A session holding an Aria temporary table (a file in the tmpdir)
	// until the test ends it.
	ctx, cancel := context.WithCancel(context.Background())
	session := exec.CommandContext(ctx, "mariadb", "--no-defaults", "-S", a.Socket, "-u", "root", "-e",
		"CREATE DATABASE scratch; USE scratch; CREATE TEMPORARY TABLE held (a INT) ENGINE=Aria; INSERT INTO held VALUES (1); SELECT SLEEP(600);")
	session.Env = BaseEnv(a.dir)
	if err := session.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); _ = session.Wait() })
	// The server names the file after its pid, in hex.
	pid, err := os.ReadFile(filepath.Join(a.dir, "mysqld.pid"))
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(pid)))
	if err != nil {
		t.Fatal(err)
	}
	pattern := filepath.Join(tmpdir, fmt.Sprintf("#sql-temptable-%x-*", n))
	var held []string
	e2epoll.Until(t, 2*time.Minute, func() error {
		if held, _ = filepath.Glob(pattern); len(held) == 0 {
			return fmt.Errorf("no temporary table file %s yet", pattern)
		}
		return nil
	})

	b, err := StartMariaDB()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Stop() })
	// b accepts connections: its start-up clean-up has run.
	if _, err := b.Query("SELECT 1"); err != nil {
		t.Fatal(err)
	}
	for _, f := range held {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("the first server's temporary table file is gone after the second started: %v", err)
		}
	}
	if other, err := b.Query("SELECT @@tmpdir"); err != nil || strings.TrimRight(other, "/") == strings.TrimRight(tmpdir, "/") {
		t.Errorf("both servers use the tmpdir %q (%v)", other, err)
	}
}
