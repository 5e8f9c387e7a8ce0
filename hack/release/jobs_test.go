package release

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// jobsRun runs a job list under hack/jobs.sh in the background: each job
// appends its name to started, then waits until the file <dir>/<name>.go
// exists and exits with the status written in it.
type jobsRun struct {
	t    *testing.T
	dir  string
	done chan error
	out  *strings.Builder
}

func startJobs(t *testing.T, env []string, decl string) *jobsRun {
	t.Helper()
	dir := t.TempDir()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`set -euo pipefail
. %q
dir=%q
gate() { echo "$1" >>"$dir/started"; until [ -e "$dir/$1.go" ]; do sleep 0.05; done; return "$(cat "$dir/$1.go")"; }
for n in a b c d e f; do eval "job_$n() { gate $n; }"; done
%s
run_jobs`, filepath.Join(root, "hack", "jobs.sh"), dir, decl)
	cmd := exec.Command("bash", "-c", script)
	cmd.Env = append(os.Environ(), env...)
	r := &jobsRun{t: t, dir: dir, done: make(chan error, 1), out: &strings.Builder{}}
	cmd.Stdout, cmd.Stderr = r.out, r.out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { r.done <- cmd.Wait() }()
	t.Cleanup(func() {
		for _, n := range []string{"a", "b", "c", "d", "e", "f"} {
			_ = os.WriteFile(filepath.Join(dir, n+".go"), []byte("0"), 0o600)
		}
		if err := <-r.done; err != nil {
			t.Logf("run_jobs, ended by the clean-up: %v", err)
		}
	})
	return r
}

// started waits until the jobs that started are want (in any order) and
// returns them; it fails once the list stays other than want for a minute.
func (r *jobsRun) started(want ...string) {
	r.t.Helper()
	var got []string
	last, since := "", time.Now()
	for time.Since(since) < time.Minute {
		b, _ := os.ReadFile(filepath.Join(r.dir, "started"))
		got = strings.Fields(string(b))
		if slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
			return
		}
		if string(b) != last {
			last, since = string(b), time.Now()
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.t.Fatalf("started %v, want %v\n%s", got, want, r.out)
}

// end lets job n end with status.
func (r *jobsRun) end(n string, status int) {
	r.t.Helper()
	if err := os.WriteFile(filepath.Join(r.dir, n+".go"), []byte(fmt.Sprint(status)), 0o600); err != nil {
		r.t.Fatal(err)
	}
}

// The scheduler of make test (hack/jobs.sh): needs, capacity, the
// reservation of a heavy job that does not fit, light jobs, failure.
func TestJobsScheduler(t *testing.T) {
	t.Run("capacity, reservation and light jobs", func(t *testing.T) {
		r := startJobs(t, []string{"JOBS_CAPACITY=100", "JOBS_LIGHT=10"}, `
job a 60
job b 60
job c 30
job d 10
job e 20 a`)
		// b does not fit beside a and keeps its weight reserved, so c
		// (which alone would fit) waits; d is light and starts. d comes
		// after c in the order: when d has started, c was passed over.
		r.started("a", "d")
		r.end("a", 0)
		// a's 60 free: b and c start (100); e, ready now, does not fit.
		r.started("a", "d", "b", "c")
		r.end("d", 0)
		r.end("c", 0)
		r.started("a", "d", "b", "c", "e")
		r.end("b", 0)
		r.end("e", 0)
		if err := <-r.done; err != nil {
			t.Fatalf("run_jobs: %v\n%s", err, r.out)
		}
		r.done <- nil
		if !strings.Contains(r.out.String(), "== e: passed") {
			t.Errorf("no pass line of e:\n%s", r.out)
		}
	})
	t.Run("no job starts after a failure", func(t *testing.T) {
		r := startJobs(t, []string{"JOBS_CAPACITY=100"}, `
job a 60
job b 60
job c 60 a`)
		r.started("a")
		r.end("a", 3)
		if err := <-r.done; err == nil {
			t.Fatalf("run_jobs passed after a failed job:\n%s", r.out)
		}
		r.done <- nil
		b, _ := os.ReadFile(filepath.Join(r.dir, "started"))
		if got := strings.Fields(string(b)); !slices.Equal(got, []string{"a"}) {
			t.Errorf("jobs started %v after a failed, want only a", got)
		}
		for _, line := range []string{"== a: failed", "b  ", "not run"} {
			if !strings.Contains(r.out.String(), line) {
				t.Errorf("the output does not say %q:\n%s", line, r.out)
			}
		}
	})
}
