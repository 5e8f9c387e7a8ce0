package localsvc

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// MariaDB is a throwaway MariaDB server on 127.0.0.1 with its own data
// directory; root authenticates over the socket only.
type MariaDB struct {
	Port   int
	Socket string
	dir    string
	bind   string
	proc   *Proc
	spec   ProcSpec
}

var mariadbSizing = []string{"--innodb-log-file-size=8M", "--innodb-buffer-pool-size=32M"}

// StartMariaDB initialises a data directory and starts the server. The
// directory is made under /tmp: the socket path must stay under the 107
// bytes of a unix socket address, which test temp dirs can exceed.
func StartMariaDB() (*MariaDB, error) { return StartMariaDBWith(MariaDBOptions{}) }

// MariaDBOptions tune a throwaway server.
type MariaDBOptions struct {
	// Bind is the listen address (127.0.0.1 when empty): an address of
	// this machine that pods of a real cluster can reach, on kind.
	Bind string
	// TLS, when set, serves TLS with these PEM files (ssl-ca, ssl-cert,
	// ssl-key).
	TLS *TLSFiles
}

// TLSFiles are PEM file paths.
type TLSFiles struct{ CA, Cert, Key string }

// StartMariaDBWith starts a server as StartMariaDB does, with options.
func StartMariaDBWith(o MariaDBOptions) (*MariaDB, error) {
	bind := o.Bind
	if bind == "" {
		bind = "127.0.0.1"
	}
	dir, err := os.MkdirTemp("", "mdb")
	if err != nil {
		return nil, err
	}
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	m := &MariaDB{Port: port, Socket: filepath.Join(dir, "mysqld.sock"), dir: dir, bind: bind}
	// A temporary directory of its own: a starting server deletes every
	// "#sql*" file in its tmpdir (left-over temporary tables, it assumes),
	// so servers sharing /tmp deleted each other's on-disk temporary
	// tables whenever one started beside another (seen: "Error on delete
	// of '/tmp/#sql-temptable-…MAI'" in a suite running beside others).
	tmp := filepath.Join(dir, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return nil, err
	}
	env := append(BaseEnv(dir), "TMPDIR="+tmp)
	user := []string{}
	if os.Geteuid() == 0 {
		user = []string{"--user=root"}
	}
	install := append([]string{"mariadb-install-db", "--no-defaults", "--datadir=" + dir + "/data",
		"--auth-root-authentication-method=socket", "--skip-test-db", "--skip-name-resolve"}, user...)
	install = append(install, mariadbSizing...)
	if code, log, err := Run(ProcSpec{Name: "mariadb-install-db", Dir: dir, Argv: install, Env: env}, 2*time.Minute); err != nil || code != 0 {
		return nil, exitError("mariadb-install-db", code, err, log)
	}
	argv := append([]string{"mariadbd", "--no-defaults", "--datadir=" + dir + "/data",
		"--skip-networking=0", "--bind-address=" + bind, "--port=" + strconv.Itoa(port),
		"--socket=" + m.Socket, "--pid-file=" + dir + "/mysqld.pid", "--tmpdir=" + tmp, "--skip-name-resolve", "--skip-log-bin",
		"--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci"}, user...)
	argv = append(argv, mariadbSizing...)
	if o.TLS != nil {
		argv = append(argv, "--ssl-ca="+o.TLS.CA, "--ssl-cert="+o.TLS.Cert, "--ssl-key="+o.TLS.Key)
	}
	m.spec = ProcSpec{Name: "mariadbd", Dir: dir, Argv: argv, Env: env}
	if err := m.Resume(); err != nil {
		_ = m.Stop()
		return nil, err
	}
	return m, nil
}

// Halt stops the server as an outage does and keeps its data: Resume starts
// it again on the same port with everything it held.
func (m *MariaDB) Halt() error { return m.proc.Stop(30 * time.Second) }

// Resume starts the server (again) and waits until it accepts connections.
func (m *MariaDB) Resume() error {
	p, err := Start(m.spec)
	if err != nil {
		return err
	}
	m.proc = p
	return WaitTCP(p, m.Addr(), time.Minute)
}

// Addr is host:port of the TCP listener.
func (m *MariaDB) Addr() string { return m.bind + ":" + strconv.Itoa(m.Port) }

// Query runs SQL as root over the socket and returns the rows, tab-separated.
func (m *MariaDB) Query(sql string) (string, error) {
	cmd := exec.Command("mariadb", "--no-defaults", "-S", m.Socket, "-u", "root", "-N", "-B", "-e", sql)
	cmd.Env = BaseEnv(m.dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("mariadb %q: %w: %s", sql, err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// CreateSchema creates database db and a user that owns it from 127.0.0.1,
// as mariadb-operator's Database, User and Grant would.
func (m *MariaDB) CreateSchema(db, user, password string) error {
	_, err := m.Query(fmt.Sprintf(
		"CREATE DATABASE IF NOT EXISTS `%s` CHARACTER SET utf8mb4; "+
			"CREATE USER IF NOT EXISTS '%s'@'127.0.0.1' IDENTIFIED BY '%s'; "+
			"GRANT ALL PRIVILEGES ON `%s`.* TO '%s'@'127.0.0.1';",
		db, user, sqlString(password), db, user))
	return err
}

// DropSchema drops database db and the user.
func (m *MariaDB) DropSchema(db, user string) error {
	_, err := m.Query(fmt.Sprintf("DROP DATABASE IF EXISTS `%s`; DROP USER IF EXISTS '%s'@'127.0.0.1';", db, user))
	return err
}

// Stop shuts the server down and removes its data directory.
func (m *MariaDB) Stop() error {
	var err error
	if m.proc != nil {
		err = m.proc.Stop(30 * time.Second)
	}
	if rmErr := os.RemoveAll(m.dir); err == nil {
		err = rmErr
	}
	return err
}

// sqlString escapes a value for a single-quoted SQL string literal.
func sqlString(s string) string {
	return strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s)
}

// QueryAs runs SQL over TCP as user with password, as a client would.
func (m *MariaDB) QueryAs(user, password, db, sql string) (string, error) {
	cmd := exec.Command("mariadb", "--no-defaults", "-h", m.bind, "-P", strconv.Itoa(m.Port),
		"-u", user, "-p"+password, "-N", "-B", "-D", db, "-e", sql)
	cmd.Env = BaseEnv(m.dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("mariadb as %s: %w: %s", user, err, out)
	}
	return strings.TrimSpace(string(out)), nil
}
