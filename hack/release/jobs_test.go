package release

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// jobsRun runs a job list under hack/jobs.sh in the background. Each job
// runs until the test writes its exit status to <dir>/<name> (the job's
// whole work is looking for that file); the scheduler's start and end
// lines come to the test as they are printed.
type jobsRun struct {
	t       *testing.T
	dir     string
	cmd     *exec.Cmd
	starts  chan string
	done    chan error
	out     strings.Builder
	started []string
}

var startLine = regexp.MustCompile(`^== (\w+): (started|passed|failed)`)

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
gate() { until [ -s "$dir/$1" ]; do sleep 0.02; done; return "$(cat "$dir/$1")"; }
for n in a b c d e f; do eval "job_$n() { gate $n; }"; done
%s
run_jobs`, filepath.Join(root, "hack", "jobs.sh"), dir, decl)
	r := &jobsRun{t: t, dir: dir, starts: make(chan string, 16), done: make(chan error, 1)}
	r.cmd = exec.Command("bash", "-c", script)
	r.cmd.Env = append(os.Environ(), env...)
	r.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := r.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	r.cmd.Stderr = r.cmd.Stdout
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var lines strings.Builder
	go func() {
		sc := bufio.NewScanner(io.TeeReader(stdout, &lines))
		for sc.Scan() {
			if m := startLine.FindStringSubmatch(sc.Text()); m != nil {
				r.starts <- m[1] + " " + m[2]
			}
		}
		err := r.cmd.Wait()
		r.out.WriteString(lines.String())
		close(r.starts)
		r.done <- err
	}()
	// Jobs still waiting on their FIFO when the test ends go with the
	// scheduler's process group.
	t.Cleanup(func() {
		_ = syscall.Kill(-r.cmd.Process.Pid, syscall.SIGKILL)
		for range r.starts {
		}
	})
	return r
}

// expectStarted takes the scheduler's lines until the jobs started so far
// are want (in any order), failing on a job outside want.
func (r *jobsRun) expectStarted(want ...string) {
	r.t.Helper()
	for !slices.Equal(slices.Sorted(slices.Values(r.started)), slices.Sorted(slices.Values(want))) {
		n := r.next(want)
		if ok := strings.HasSuffix(n, " started"); ok {
			r.started = append(r.started, strings.TrimSuffix(n, " started"))
		}
	}
}

// next is the scheduler's next start or end line ("a started", "a passed").
func (r *jobsRun) next(want []string) string {
	r.t.Helper()
	n, ok := <-r.starts
	if !ok {
		r.t.Fatalf("the scheduler ended with %v started, want %v\n%s", r.started, want, r.out.String())
	}
	if job, _, _ := strings.Cut(n, " "); !slices.Contains(want, job) {
		r.t.Fatalf("%s, want only %v started", n, want)
	}
	return n
}

// end lets job n end with status and waits for the scheduler's line of it.
func (r *jobsRun) end(n string, status int) {
	r.t.Helper()
	if err := os.WriteFile(filepath.Join(r.dir, n), []byte(fmt.Sprintln(status)), 0o600); err != nil {
		r.t.Fatal(err)
	}
	for {
		line := r.next(r.started)
		if line == n+" passed" || line == n+" failed" {
			return
		}
		if strings.HasSuffix(line, " started") {
			r.started = append(r.started, strings.TrimSuffix(line, " started"))
		}
	}
}

// wait waits for run_jobs to end and returns its error; every start line
// has been taken by then.
func (r *jobsRun) wait() error {
	r.t.Helper()
	for n := range r.starts {
		if job, ok := strings.CutSuffix(n, " started"); ok {
			r.started = append(r.started, job)
		}
	}
	select {
	case err := <-r.done:
		return err
	case <-time.After(time.Minute):
		r.t.Fatal("run_jobs did not end after its start lines")
		return nil
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
		r.expectStarted("a", "d")
		r.end("a", 0)
		// a's 60 free: b and c start (100); e, ready now, does not fit.
		r.expectStarted("a", "d", "b", "c")
		r.end("d", 0)
		r.end("c", 0)
		r.expectStarted("a", "d", "b", "c", "e")
		r.end("b", 0)
		r.end("e", 0)
		if err := r.wait(); err != nil {
			t.Fatalf("run_jobs: %v\n%s", err, r.out.String())
		}
		if !strings.Contains(r.out.String(), "== e: passed") {
			t.Errorf("no pass line of e:\n%s", r.out.String())
		}
	})
	t.Run("no job starts after a failure", func(t *testing.T) {
		r := startJobs(t, []string{"JOBS_CAPACITY=100"}, `
job a 60
job b 60
job c 60 a`)
		r.expectStarted("a")
		r.end("a", 3)
		if err := r.wait(); err == nil {
			t.Fatalf("run_jobs passed after a failed job:\n%s", r.out.String())
		}
		if !slices.Equal(r.started, []string{"a"}) {
			t.Errorf("jobs started %v after a failed, want only a", r.started)
		}
		for _, line := range []string{"== a: failed", "not run"} {
			if !strings.Contains(r.out.String(), line) {
				t.Errorf("the output does not say %q:\n%s", line, r.out.String())
			}
		}
	})
}

var cpuLine = regexp.MustCompile(`== a: passed in \S+ \(\S+ in, (\d+) CPU s\)`)

// Each job's line gives the CPU time of what it ran: of its cgroup where
// the cpuacct hierarchy is writable, else of the processes it waited for.
// The job's work is a child process that spins for two CPU seconds.
func TestJobsSchedulerAccountsCPU(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string]string{"waited-for processes": "JOBS_CGROUP="}
	if probe := "/sys/fs/cgroup/cpuacct/jobs-test-probe"; os.Mkdir(probe, 0o755) == nil {
		_ = os.Remove(probe)
		modes["cgroup"] = "JOBS_CGROUP=/sys/fs/cgroup/cpuacct"
	} else {
		t.Logf("the cpuacct hierarchy is not writable here (%v): only the waited-for mode runs", err)
	}
	for mode, env := range modes {
		t.Run(mode, func(t *testing.T) {
			script := fmt.Sprintf(`set -euo pipefail
. %q
job_a() { perl -e 'while (1) { ($u, $s) = times; last if $u + $s >= 2; $i++ }'; }
job a 50
run_jobs`, filepath.Join(root, "hack", "jobs.sh"))
			cmd := exec.Command("bash", "-c", script)
			cmd.Env = append(os.Environ(), env)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("run_jobs: %v\n%s", err, out)
			}
			m := cpuLine.FindSubmatch(out)
			if m == nil {
				t.Fatalf("no CPU time on a's line:\n%s", out)
			}
			if cpu := string(m[1]); cpu != "2" && cpu != "3" {
				t.Errorf("a took %s CPU s, want 2 (the child's spin):\n%s", cpu, out)
			}
			if !strings.Contains(string(out), "CPU: ") {
				t.Errorf("no total CPU line:\n%s", out)
			}
		})
	}
}
