package charts

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	common "github.com/c5c3/openstack-operators/common/lib/observability"
	"github.com/c5c3/openstack-operators/e2e/observability"
)

// eachObservability runs f per operator with its chart.
func eachObservability(t *testing.T, f func(t *testing.T, c chart, op observability.Operator)) {
	t.Helper()
	if len(observability.Operators) != len(operatorCharts) {
		t.Fatalf("%d operators describe their metrics, %d charts exist", len(observability.Operators), len(operatorCharts))
	}
	for i, c := range operatorCharts {
		op := observability.Operators[i]
		if op.Chart != c.name {
			t.Fatalf("operator %d is %s, chart %s", i, op.Chart, c.name)
		}
		t.Run(c.name, func(t *testing.T) { f(t, c, op) })
	}
}

func chartFile(t *testing.T, c chart, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "charts", c.name, "files", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// chartExprs are every PromQL expression of a chart's dashboard and rules.
func chartExprs(t *testing.T, c chart) (dashboard, rules []string) {
	t.Helper()
	dashboard, err := common.DashboardExprs(chartFile(t, c, observability.DashboardFile))
	if err != nil {
		t.Fatal(err)
	}
	rules, err = common.RuleExprs(chartFile(t, c, observability.RulesFile))
	if err != nil {
		t.Fatal(err)
	}
	return dashboard, rules
}

// The committed files are what the operator's description builds now.
func TestObservabilityFilesAreGenerated(t *testing.T) {
	eachObservability(t, func(t *testing.T, c chart, op observability.Operator) {
		files, err := observability.Files(op.Spec())
		if err != nil {
			t.Fatal(err)
		}
		for name, want := range files {
			if got := chartFile(t, c, name); !bytes.Equal(got, want) {
				t.Errorf("charts/%s/files/%s is stale: run hack/generate.sh", c.name, name)
			}
		}
	})
}

// unregistered returns the metric names expr reads that the operator does
// not register (a histogram's series carry _bucket, _sum or _count).
func unregistered(expr string, registered []string) []string {
	var out []string
	for _, n := range common.MetricNames(expr) {
		base := n
		for _, suffix := range []string{"_bucket", "_sum", "_count"} {
			base = strings.TrimSuffix(base, suffix)
		}
		if !slices.Contains(registered, n) && !slices.Contains(registered, base) {
			out = append(out, n)
		}
	}
	return out
}

// Every metric a dashboard query or an alert reads is one the operator
// registers: a renamed metric breaks this test, not a production alert.
func TestObservabilityReadsRegisteredMetrics(t *testing.T) {
	eachObservability(t, func(t *testing.T, c chart, op observability.Operator) {
		registered := op.MetricNames()
		if len(registered) < 7 {
			t.Fatalf("the operator registers only %v", registered)
		}
		// The check itself refuses a name the operator does not have.
		if bad := unregistered(`rate(`+registered[0]+`x[5m])`, registered); len(bad) != 1 {
			t.Fatalf("a misspelt metric passed the check: %v", bad)
		}
		dashboard, rules := chartExprs(t, c)
		used := map[string]bool{}
		for _, e := range append(dashboard, rules...) {
			names := common.MetricNames(e)
			if len(names) == 0 {
				t.Errorf("%q reads no metric", e)
			}
			for _, n := range names {
				used[n] = true
			}
			if bad := unregistered(e, registered); len(bad) > 0 {
				t.Errorf("%q reads %v, which %s does not register (it registers %v)", e, bad, c.name, registered)
			}
		}
		t.Logf("%d dashboard queries and %d alerts read %d metrics of the %d registered", len(dashboard), len(rules), len(used), len(registered))
	})
}

var (
	promtoolOnce sync.Once
	promtoolPath string
	promtoolErr  error
)

// promtool runs the pinned promtool, building it on first use.
func promtool(t *testing.T, args ...string) string {
	t.Helper()
	promtoolOnce.Do(func() {
		tools := filepath.Join(repoRoot(t), "hack", "tools.sh")
		if promtoolErr = run(exec.Command(tools, "promtool")); promtoolErr == nil {
			var out []byte
			out, promtoolErr = exec.Command(tools, "--path", "promtool").Output()
			promtoolPath = strings.TrimSpace(string(out))
		}
	})
	if promtoolErr != nil {
		t.Fatalf("preparing promtool: %v", promtoolErr)
	}
	out, err := exec.Command(promtoolPath, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// grafanaVars stand in for the dashboard's variables where PromQL checks them.
var grafanaVars = strings.NewReplacer("$__rate_interval", "5m", "$namespace", ".*")

// promtool accepts the rule file and every dashboard query (checked as
// recording rules), and refuses a broken expression (so its check counts).
func TestObservabilityPromtoolChecks(t *testing.T) {
	eachObservability(t, func(t *testing.T, c chart, op observability.Operator) {
		dir := t.TempDir()
		rules := filepath.Join(repoRoot(t), "charts", c.name, "files", observability.RulesFile)
		if out := promtool(t, "check", "rules", rules); !strings.Contains(out, "SUCCESS") {
			t.Errorf("promtool check rules: %s", out)
		}
		dashboard, _ := chartExprs(t, c)
		g := common.RuleGroup{Name: "dashboard"}
		for i, e := range dashboard {
			g.Rules = append(g.Rules, common.RuleRecord{Record: fmt.Sprintf("dashboard:query%d", i), Expr: grafanaVars.Replace(e)})
		}
		write := func(name string, f common.RuleFile) string {
			b, err := yaml.Marshal(f)
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, b, 0o644); err != nil {
				t.Fatal(err)
			}
			return path
		}
		if out := promtool(t, "check", "rules", write("dashboard.yaml", common.RuleFile{Groups: []common.RuleGroup{g}})); !strings.Contains(out, fmt.Sprintf("SUCCESS: %d rules found", len(dashboard))) {
			t.Errorf("promtool check of the dashboard queries: %s", out)
		}
		broken := write("broken.yaml", common.RuleFile{Groups: []common.RuleGroup{{Name: "b", Rules: []common.RuleRecord{{Record: "b:x", Expr: "sum by (le (x)"}}}}})
		if out, err := exec.Command(promtoolPath, "check", "rules", broken).CombinedOutput(); err == nil {
			t.Errorf("promtool accepted a broken expression: %s", out)
		}
	})
}

// Off by default (TestChartDefaults); on, the ConfigMap carries the
// dashboard under the sidecar's label, the PrometheusRule the rule file with
// the NotReady wait and the extra labels from values.
func TestObservabilityObjects(t *testing.T) {
	eachObservability(t, func(t *testing.T, c chart, op observability.Operator) {
		objs := render(t, c, "--set", "metrics.dashboard.enabled=true", "--set", "metrics.dashboard.namespace=monitoring",
			"--set", "metrics.dashboard.annotations.grafana_folder=OpenStack",
			"--set", "metrics.prometheusRule.enabled=true", "--set", "metrics.prometheusRule.labels.release=kube-prometheus",
			"--set", "metrics.prometheusRule.notReadyFor=45m",
			"--set", "metrics.prometheusRule.ruleLabels.team=cloud", "--set", "metrics.prometheusRule.ruleLabels.severity=page")

		cm := get(t, objs, "ConfigMap/"+c.fullname()+"-dashboard")
		if cm.GetNamespace() != "monitoring" || cm.GetLabels()["grafana_dashboard"] != "1" || cm.GetAnnotations()["grafana_folder"] != "OpenStack" {
			t.Errorf("dashboard ConfigMap namespace %q, labels %v, annotations %v", cm.GetNamespace(), cm.GetLabels(), cm.GetAnnotations())
		}
		data, _, _ := unstructured.NestedString(cm.Object, "data", c.name+".json")
		if want := strings.TrimSpace(string(chartFile(t, c, observability.DashboardFile))); data != want {
			t.Errorf("dashboard in the ConfigMap differs from files/%s", observability.DashboardFile)
		}

		pr := get(t, objs, "PrometheusRule/"+c.fullname())
		if pr.GetNamespace() != c.namespace || pr.GetLabels()["release"] != "kube-prometheus" {
			t.Errorf("PrometheusRule namespace %q, labels %v", pr.GetNamespace(), pr.GetLabels())
		}
		var want common.RuleFile
		if err := yaml.Unmarshal(chartFile(t, c, observability.RulesFile), &want); err != nil {
			t.Fatal(err)
		}
		notReady := op.Spec().NotReadyAlert()
		for i := range want.Groups[0].Rules {
			r := &want.Groups[0].Rules[i]
			r.Labels["team"] = "cloud" // the rule's own severity stays
			if r.Alert == notReady {
				r.For = "45m"
			}
		}
		var got common.RuleFile
		spec, _, _ := unstructured.NestedMap(pr.Object, "spec")
		if err := yaml.Unmarshal([]byte(toYAML(t, spec)), &got); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("PrometheusRule spec (-want +got):\n%s", diff)
		}
	})
}
