package localsvc

import (
	"os"
	"strconv"
	"time"
)

// Memcached is a memcached server on 127.0.0.1.
type Memcached struct {
	Port int
	proc *Proc
	dir  string
}

// StartMemcached starts a 16 MiB memcached without UDP.
func StartMemcached() (*Memcached, error) {
	dir, err := os.MkdirTemp("", "mc")
	if err != nil {
		return nil, err
	}
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	argv := []string{"memcached", "-l", "127.0.0.1", "-p", strconv.Itoa(port), "-U", "0", "-m", "16"}
	if os.Geteuid() == 0 {
		argv = append(argv, "-u", "root")
	}
	p, err := Start(ProcSpec{Name: "memcached", Dir: dir, Argv: argv, Env: BaseEnv(dir)})
	if err != nil {
		return nil, err
	}
	m := &Memcached{Port: port, proc: p, dir: dir}
	if err := WaitTCP(p, m.Addr(), 30*time.Second); err != nil {
		_ = m.Stop()
		return nil, err
	}
	return m, nil
}

// Addr is host:port.
func (m *Memcached) Addr() string { return "127.0.0.1:" + strconv.Itoa(m.Port) }

// Stop stops the server and removes its directory.
func (m *Memcached) Stop() error {
	err := m.proc.Stop(10 * time.Second)
	_ = os.RemoveAll(m.dir)
	return err
}
