package bench

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strings"
	"time"
)

// OperatorProcess is the parent's handle on a running operator process.
type OperatorProcess struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	url   string
	http  *http.Client
	// exited is closed once the process has been waited for; err is then
	// its exit error.
	exited chan struct{}
	err    error
}

// StartOperator runs `bin operator <args>` and waits until the operator's
// controller has started; its stderr goes to logs.
func StartOperator(ctx context.Context, bin string, args []string, logs io.Writer) (*OperatorProcess, error) {
	cmd := exec.Command(bin, append([]string{"operator"}, args...)...)
	cmd.Stderr = logs
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the operator process: %w", err)
	}
	p := &OperatorProcess{cmd: cmd, stdin: stdin, exited: make(chan struct{}), http: &http.Client{Timeout: time.Minute}}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), readyLine+" "); ok {
				lines <- rest
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
		p.err = cmd.Wait()
		close(p.exited)
	}()
	select {
	case p.url = <-lines:
		return p, nil
	case <-p.exited:
		return nil, fmt.Errorf("operator process exited before it was ready: %w", p.err)
	case <-ctx.Done():
		p.kill()
		return nil, ctx.Err()
	case <-time.After(5 * time.Minute):
		p.kill()
		return nil, fmt.Errorf("operator process not ready within 5 minutes")
	}
}

// Pid is the operator process's id.
func (p *OperatorProcess) Pid() int { return p.cmd.Process.Pid }

// CPU is the CPU time the operator process has used, in seconds.
func (p *OperatorProcess) CPU() (float64, error) { return processCPU(p.Pid()) }

func (p *OperatorProcess) get(ctx context.Context, path string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, p.url+path, http.NoBody)
	if err != nil {
		return nil, err
	}
	resp, err := p.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		return nil, fmt.Errorf("operator %s: %s: %s", path, resp.Status, strings.TrimSpace(string(b)))
	}
	return resp, nil
}

func (p *OperatorProcess) getJSON(ctx context.Context, path string, v any) error {
	resp, err := p.get(ctx, path)
	if err != nil {
		return err
	}
	defer func() { _ = resp.Body.Close() }()
	return json.NewDecoder(resp.Body).Decode(v)
}

// Metrics scrapes the operator's metrics registry.
func (p *OperatorProcess) Metrics(ctx context.Context) (Families, error) {
	resp, err := p.get(ctx, "/metrics")
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	return ParseFamilies(resp.Body)
}

// Memory samples the operator's heap and RSS after a collection.
func (p *OperatorProcess) Memory(ctx context.Context) (MemorySample, error) {
	var s MemorySample
	return s, p.getJSON(ctx, "/memory", &s)
}

// CachedSecrets is how many Secrets the operator's cache holds (metadata).
func (p *OperatorProcess) CachedSecrets(ctx context.Context) (int, error) {
	var n int
	return n, p.getJSON(ctx, "/cached-secrets", &n)
}

// Stop closes the operator's stdin, which stops its manager, and waits.
// Stopping a stopped process returns how it ended.
func (p *OperatorProcess) Stop(timeout time.Duration) error {
	_ = p.stdin.Close()
	select {
	case <-p.exited:
		return p.err
	case <-time.After(timeout):
		p.kill()
		return fmt.Errorf("operator process did not stop within %s; killed", timeout)
	}
}

func (p *OperatorProcess) kill() {
	_ = p.cmd.Process.Kill()
}
