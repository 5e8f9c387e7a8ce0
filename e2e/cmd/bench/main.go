// Command bench is the benchmark harness (package e2e/bench): it measures an
// operator's convergence, steady-state API load, latency, credential
// rotation and memory on a real kube-apiserver and etcd, prints a table,
// writes JSON and compares the figures with a committed baseline. Run it
// through hack/bench.sh (make bench); docs/bench.md explains the figures.
//
//	bench [flags]            run the scenarios
//	bench operator [flags]   the operator process the harness starts itself
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"go.uber.org/zap/zapcore"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/log/zap"

	"github.com/c5c3/openstack-operators/e2e/bench"
)

func main() {
	if err := dispatch(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

func dispatch(args []string) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if len(args) > 0 && args[0] == "operator" {
		return runOperator(ctx, args[1:])
	}
	return run(ctx, args)
}

// runOperator is the operator process: see bench.RunOperator.
func runOperator(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("bench operator", flag.ContinueOnError)
	name := fs.String("operator", "placement", "operator profile")
	kubeconfig := fs.String("kubeconfig", "", "kubeconfig of the control plane")
	sync := fs.Duration("sync-period", 10*time.Minute, "the manager's resync period")
	probeURL := fs.String("probe-url", "", "URL every API health probe hits")
	if err := fs.Parse(args); err != nil {
		return err
	}
	op, err := profile(*name)
	if err != nil {
		return err
	}
	return bench.RunOperator(ctx, op, bench.ChildOptions{Kubeconfig: *kubeconfig, SyncPeriod: *sync, ProbeURL: *probeURL}, os.Stdin, os.Stdout)
}

type options struct {
	operator, ns, micro, baseline, out, dir, writeBaseline string
	smoke, rotation                                        bool
	memoryN, unrelated, workers, resyncMaxN                int
	sync                                                   time.Duration
}

func run(ctx context.Context, args []string) error {
	var o options
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.StringVar(&o.operator, "operator", "placement", "operator profile")
	fs.StringVar(&o.ns, "n", "1,10,100,500", "numbers of CRs, one scenario each")
	fs.IntVar(&o.memoryN, "memory-n", 100, "the scenario whose operator is measured with the unrelated objects (0: none)")
	fs.IntVar(&o.unrelated, "unrelated", 10000, "unrelated Secrets, and as many ConfigMaps, of the memory phase")
	fs.BoolVar(&o.rotation, "rotation", true, "run the one-credential-change-per-CR phase")
	fs.DurationVar(&o.sync, "resync-period", 10*time.Second, "resync period of the periodic-resync phase")
	fs.IntVar(&o.resyncMaxN, "resync-max-n", 10, "largest scenario that runs the periodic-resync phase (every informer resync is a pass per CR)")
	fs.IntVar(&o.workers, "workers", 8, "parallel requests of the harness")
	fs.StringVar(&o.micro, "micro", "", "go test -bench output to include")
	fs.StringVar(&o.baseline, "baseline", "", "baseline to compare with (empty: none)")
	fs.StringVar(&o.writeBaseline, "write-baseline", "", "write this run's figures as a new baseline to this file")
	fs.StringVar(&o.out, "out", ".cache/bench/bench.json", "JSON report")
	fs.StringVar(&o.dir, "dir", ".cache/bench", "work directory: kubeconfig, bench.log")
	fs.BoolVar(&o.smoke, "smoke", false, "short run: N=10, no memory phase, compare only the zero targets")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.smoke {
		o.ns, o.memoryN = "10", 0
	}
	op, err := profile(o.operator)
	if err != nil {
		return err
	}
	ns, err := parseNs(o.ns)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return err
	}
	logs, err := os.Create(filepath.Join(o.dir, "bench.log"))
	if err != nil {
		return err
	}
	defer func() { _ = logs.Close() }()
	ctrl.SetLogger(zap.New(zap.WriteTo(logs), zap.Level(zapcore.ErrorLevel)))
	bin, err := os.Executable()
	if err != nil {
		return err
	}

	mode := "full"
	if o.smoke {
		mode = "smoke"
	}
	report := &bench.Report{Operator: op.Name, Mode: mode, Started: time.Now().UTC().Format(time.RFC3339),
		Machine: bench.ThisMachine(), SyncPeriodSeconds: o.sync.Seconds()}
	if o.micro != "" {
		if report.Micro, err = readMicro(o.micro); err != nil {
			return err
		}
	}
	for _, n := range ns {
		cfg := bench.Config{Op: op, Bin: bin, Dir: o.dir, ResyncPeriod: o.sync, ResyncMaxN: o.resyncMaxN, Workers: o.workers,
			Rotation: o.rotation, Logs: logs, Progress: os.Stderr}
		if n == o.memoryN {
			cfg.UnrelatedObjects = o.unrelated
		}
		start := time.Now()
		res, err := bench.RunScenario(ctx, cfg, n)
		if err != nil {
			return fmt.Errorf("scenario of %d CRs: %w (logs in %s)", n, err, logs.Name())
		}
		fmt.Fprintf(os.Stderr, "bench: N=%d done in %s\n", n, time.Since(start).Round(time.Second))
		report.Scenarios = append(report.Scenarios, res)
	}
	return finish(report, &o)
}

// finish compares, prints, writes the JSON and fails on a regression.
func finish(report *bench.Report, o *options) error {
	if o.baseline != "" {
		base, err := bench.LoadBaseline(o.baseline)
		switch {
		case errors.Is(err, os.ErrNotExist) && o.writeBaseline != "":
		case err != nil:
			return err
		default:
			report.Verdicts = base.Compare(report, o.smoke)
		}
	}
	if err := report.Print(os.Stdout); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(o.out), 0o755); err != nil {
		return err
	}
	if err := report.WriteJSON(o.out); err != nil {
		return err
	}
	fmt.Printf("\nJSON report: %s\n", o.out)
	if o.writeBaseline != "" {
		tol := bench.DefaultTolerances
		if old, err := bench.LoadBaseline(o.writeBaseline); err == nil && len(old.Tolerances) > 0 {
			tol = old.Tolerances
		}
		if err := bench.NewBaseline(report, tol).Write(o.writeBaseline); err != nil {
			return err
		}
		fmt.Printf("baseline written: %s\n", o.writeBaseline)
		return nil
	}
	if report.Regressed() {
		return errors.New("figures regressed against the baseline (see REGRESSED above)")
	}
	return nil
}

func profile(name string) (*bench.Operator, error) {
	op, ok := bench.Operators[name]
	if !ok {
		return nil, fmt.Errorf("unknown operator %q", name)
	}
	return op, nil
}

func parseNs(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("-n: %q is not a positive number", f)
		}
		out = append(out, n)
	}
	return out, nil
}

func readMicro(path string) ([]bench.MicroResult, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }()
	return bench.ParseMicro(io.Reader(f))
}
