package charts

import (
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// chart is one operator's chart and how the tests install it.
type chart struct {
	name      string   // chart directory under charts/, also the operator module
	release   string   // release name the tests render it as
	namespace string   // release namespace
	crds      []string // CRDs the chart ships
	resources []string // resources its validating webhooks admit
	mutating  []string // resources its mutating webhooks admit; resources when nil
}

// admitted are the resources the webhook configuration of kind admits.
func (c chart) admitted(kind string) []string {
	if kind == "MutatingWebhookConfiguration" && c.mutating != nil {
		return c.mutating
	}
	return c.resources
}

func (c chart) fullname() string { return c.release + "-" + c.name }

// operatorCharts are the charts of every operator; the next one joins by a line.
var operatorCharts = []chart{
	{name: "placement-operator", release: "placement", namespace: "placement-system",
		crds: []string{"placements.placement.openstack.c5c3.io"}, resources: []string{"placements"}},
	{name: "glance-operator", release: "glance", namespace: "glance-system",
		crds: []string{"glances.glance.openstack.c5c3.io", "glancebackends.glance.openstack.c5c3.io"}, resources: []string{"glances", "glancebackends"}},
	{name: "barbican-operator", release: "barbican", namespace: "barbican-system",
		crds:      []string{"barbicans.barbican.openstack.c5c3.io", "barbicansecretstores.barbican.openstack.c5c3.io"},
		resources: []string{"barbicans", "barbicansecretstores"}, mutating: []string{"barbicans"}},
}

// eachChart runs f as a subtest per operator chart.
func eachChart(t *testing.T, f func(t *testing.T, c chart)) {
	t.Helper()
	for _, c := range operatorCharts {
		t.Run(c.name, func(t *testing.T) { f(t, c) })
	}
}

func TestChartLints(t *testing.T) {
	eachChart(t, func(t *testing.T, c chart) {
		if out, err := helm(t, "lint", "--strict", "charts/"+c.name); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
	})
}

func TestChartDefaults(t *testing.T) {
	eachChart(t, func(t *testing.T, c chart) {
		objs := render(t, c)
		for _, crd := range c.crds {
			get(t, objs, "CustomResourceDefinition/"+crd)
		}
		d := get(t, objs, "Deployment/"+c.fullname())
		pod, _, _ := unstructured.NestedMap(d.Object, "spec", "template", "spec")
		ctr := pod["containers"].([]any)[0].(map[string]any)

		if got, _, _ := unstructured.NestedBool(pod, "securityContext", "runAsNonRoot"); !got {
			t.Errorf("pod runAsNonRoot not set")
		}
		sc := ctr["securityContext"].(map[string]any)
		want := map[string]any{
			"runAsNonRoot": true, "runAsUser": float64(65532), "runAsGroup": float64(65532),
			"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true,
			"capabilities":   map[string]any{"drop": []any{"ALL"}},
			"seccompProfile": map[string]any{"type": "RuntimeDefault"},
		}
		if diff := cmp.Diff(want, sc); diff != "" {
			t.Errorf("container securityContext (-want +got):\n%s", diff)
		}
		args := strings.Join(toStrings(ctr["args"]), " ")
		for _, a := range []string{"--leader-elect=true", "--leader-elect-lease-duration=15s", "--leader-elect-renew-deadline=10s",
			"--leader-elect-retry-period=2s", "--metrics-bind-address=:8080", "--enable-webhooks=true",
			"--webhook-cert-dir=/tmp/k8s-webhook-server/serving-certs", "--clusters-namespace=c5c3-clusters",
			"--cluster-domain=cluster.local", "--probe-via-apiserver=false"} {
			if !strings.Contains(args, a) {
				t.Errorf("args %q lack %s", args, a)
			}
		}
		if p, _, _ := unstructured.NestedString(ctr, "livenessProbe", "httpGet", "path"); p != "/healthz" {
			t.Errorf("liveness path %q", p)
		}
		if p, _, _ := unstructured.NestedString(ctr, "readinessProbe", "httpGet", "path"); p != "/readyz" {
			t.Errorf("readiness path %q", p)
		}
		if !strings.Contains(toYAML(t, ctr["env"]), "metadata.namespace") {
			t.Errorf("POD_NAMESPACE not from the downward API")
		}
		for _, absent := range []string{"ServiceMonitor/" + c.fullname(), "NetworkPolicy/" + c.fullname(), "PodDisruptionBudget/" + c.fullname(),
			"ConfigMap/" + c.fullname() + "-dashboard", "PrometheusRule/" + c.fullname()} {
			if _, ok := objs[absent]; ok {
				t.Errorf("%s rendered though disabled by default", absent)
			}
		}
	})
}

// operator.clusterDomain and operator.probeViaAPIServer reach the flags.
func TestChartProbeAndLeaseValues(t *testing.T) {
	eachChart(t, func(t *testing.T, c chart) {
		objs := render(t, c, "--set", "operator.clusterDomain=corp.example", "--set", "operator.probeViaAPIServer=true",
			"--set", "leaderElection.leaseDuration=30s", "--set", "leaderElection.renewDeadline=20s", "--set", "leaderElection.retryPeriod=4s")
		d := get(t, objs, "Deployment/"+c.fullname())
		containers, _, _ := unstructured.NestedSlice(d.Object, "spec", "template", "spec", "containers")
		args := toStrings(containers[0].(map[string]any)["args"])
		for _, a := range []string{"--cluster-domain=corp.example", "--probe-via-apiserver=true",
			"--leader-elect-lease-duration=30s", "--leader-elect-renew-deadline=20s", "--leader-elect-retry-period=4s"} {
			if !slices.Contains(args, a) {
				t.Errorf("args %q lack %s", args, a)
			}
		}
	})
}

// The ClusterRole carries exactly the rules controller-gen derived from the markers.
func TestChartRBACIsGenerated(t *testing.T) {
	eachChart(t, func(t *testing.T, c chart) {
		objs := render(t, c)
		role := get(t, objs, "ClusterRole/"+c.fullname())
		if diff := cmp.Diff(normalize(t, generatedRules(t, c)), normalize(t, role.Object["rules"])); diff != "" {
			t.Errorf("chart ClusterRole differs from the generated rules (-generated +chart):\n%s", diff)
		}
		if _, ok := objs["Role/"+c.fullname()+"-leader-election"]; !ok {
			t.Errorf("leader-election Role missing")
		}
		for _, o := range objs {
			noWildcards(t, o)
		}
		// operator.probeViaAPIServer sends the probe through services/proxy: the
		// ServiceAccount must be allowed to GET it, or every probe answers 403.
		if !grants(t, role, "", "services/proxy", "get") {
			t.Errorf("ClusterRole does not grant get on services/proxy")
		}
	})
}

// A namespace-scoped install (operator.watchNamespaces) splits the
// generated rules: the cluster-scoped reads stay in the ClusterRole, the
// rest is a Role bound in each watched namespace (together exactly the
// generated rules, none granted twice), a Role in the clusters namespace
// reads its registration Secrets, and the operator gets the namespaces.
func TestChartNamespaceScopedRBAC(t *testing.T) {
	eachChart(t, func(t *testing.T, c chart) {
		watched := []string{"openstack", "infra"}
		objs := renderList(t, c, "--set", "operator.watchNamespaces={openstack,infra}")
		generated := triples(t, generatedRules(t, c))
		cluster := triples(t, find(t, objs, "ClusterRole", "", c.fullname()).Object["rules"])
		for tr := range cluster {
			if res := strings.Split(tr, "/")[1]; res != "clustersecretstores" && res != "priorityclasses" {
				t.Errorf("ClusterRole grants namespaced %s", tr)
			}
		}
		if !cluster["scheduling.k8s.io/priorityclasses/get"] || !cluster["external-secrets.io/clustersecretstores/watch"] {
			t.Errorf("ClusterRole lacks the cluster-scoped reads: %v", cluster)
		}
		for _, ns := range watched {
			role := triples(t, find(t, objs, "Role", ns, c.fullname()).Object["rules"])
			union := maps.Clone(role)
			for tr := range cluster {
				if role[tr] {
					t.Errorf("%s granted by both the ClusterRole and the Role in %s", tr, ns)
				}
				union[tr] = true
			}
			if diff := cmp.Diff(generated, union); diff != "" {
				t.Errorf("Role in %s plus ClusterRole differ from the generated rules (-generated +chart):\n%s", ns, diff)
			}
			binding := find(t, objs, "RoleBinding", ns, c.fullname())
			if ref, _, _ := unstructured.NestedString(binding.Object, "roleRef", "name"); ref != c.fullname() {
				t.Errorf("RoleBinding in %s binds %q", ns, ref)
			}
			subjects, _, _ := unstructured.NestedSlice(binding.Object, "subjects")
			if len(subjects) != 1 || subjects[0].(map[string]any)["namespace"] != c.namespace {
				t.Errorf("RoleBinding in %s binds %v, want the operator's ServiceAccount in %s", ns, subjects, c.namespace)
			}
		}
		clusters := triples(t, find(t, objs, "Role", "c5c3-clusters", c.fullname()+"-clusters").Object["rules"])
		if diff := cmp.Diff(map[string]bool{"/secrets/get": true}, clusters); diff != "" {
			t.Errorf("Role in the clusters namespace (-want +got):\n%s", diff)
		}
		for _, o := range objs {
			noWildcards(t, o)
		}
		if args := deploymentArgs(t, objs, c); !slices.Contains(args, "--watch-namespaces=openstack,infra") {
			t.Errorf("args %q lack --watch-namespaces=openstack,infra", args)
		}

		// The clusters namespace among the watched ones needs no Role of its own.
		objs = renderList(t, c, "--set", "operator.watchNamespaces={openstack,c5c3-clusters}")
		for _, o := range objs {
			if o.GetKind() == "Role" && o.GetName() == c.fullname()+"-clusters" {
				t.Errorf("Role %s/%s rendered though the clusters namespace is watched", o.GetNamespace(), o.GetName())
			}
		}
		// Cluster-wide (the default): one ClusterRole, no Role beyond leader election.
		objs = renderList(t, c)
		if args := deploymentArgs(t, objs, c); !slices.Contains(args, "--watch-namespaces=") {
			t.Errorf("args %q lack an empty --watch-namespaces=", args)
		}
		for _, o := range objs {
			if o.GetKind() == "Role" && !strings.HasSuffix(o.GetName(), "-leader-election") && !strings.HasSuffix(o.GetName(), "-tokenrequest") {
				t.Errorf("cluster-wide install renders Role %s/%s", o.GetNamespace(), o.GetName())
			}
		}
	})
}

// renderList renders c and returns every object (Roles of the same name in
// several namespaces included).
func renderList(t *testing.T, c chart, args ...string) []*unstructured.Unstructured {
	t.Helper()
	base := []string{"template", c.release, "charts/" + c.name, "--namespace", c.namespace, "--kube-version", kubeVersion}
	out, err := helm(t, append(base, args...)...)
	if err != nil {
		t.Fatal(err)
	}
	return decodeList(t, out)
}

func find(t *testing.T, objs []*unstructured.Unstructured, kind, namespace, name string) *unstructured.Unstructured {
	t.Helper()
	for _, o := range objs {
		if o.GetKind() == kind && o.GetNamespace() == namespace && o.GetName() == name {
			return o
		}
	}
	t.Fatalf("no %s %s/%s rendered", kind, namespace, name)
	return nil
}

func deploymentArgs(t *testing.T, objs []*unstructured.Unstructured, c chart) []string {
	t.Helper()
	containers, _, _ := unstructured.NestedSlice(find(t, objs, "Deployment", c.namespace, c.fullname()).Object, "spec", "template", "spec", "containers")
	return toStrings(containers[0].(map[string]any)["args"])
}

func generatedRules(t *testing.T, c chart) any {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), c.name, "config", "rbac", "role.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var generated map[string]any
	if err := yaml.Unmarshal(raw, &generated); err != nil {
		t.Fatal(err)
	}
	return generated["rules"]
}

// triples expands rules into group/resource/verb entries.
func triples(t *testing.T, rules any) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	list, _ := normalize(t, rules).([]any)
	for _, r := range list {
		rule := r.(map[string]any)
		for _, g := range toStrings(rule["apiGroups"]) {
			for _, res := range toStrings(rule["resources"]) {
				for _, v := range toStrings(rule["verbs"]) {
					out[g+"/"+res+"/"+v] = true
				}
			}
		}
	}
	return out
}

// noWildcards fails the test when o, a Role or ClusterRole, has a rule with
// "*" as API group, resource or verb.
func noWildcards(t *testing.T, o *unstructured.Unstructured) {
	t.Helper()
	if o.GetKind() != "Role" && o.GetKind() != "ClusterRole" {
		return
	}
	rules, _, _ := unstructured.NestedSlice(o.Object, "rules")
	for _, r := range rules {
		for _, field := range []string{"apiGroups", "resources", "verbs"} {
			values, _, _ := unstructured.NestedStringSlice(r.(map[string]any), field)
			if slices.Contains(values, "*") {
				t.Errorf("%s %s/%s grants * in %s: %v", o.GetKind(), o.GetNamespace(), o.GetName(), field, r)
			}
		}
	}
}

// grants reports whether a rule of role allows verb on group/resource.
func grants(t *testing.T, role *unstructured.Unstructured, group, resource, verb string) bool {
	t.Helper()
	rules, _, _ := unstructured.NestedSlice(role.Object, "rules")
	for _, r := range rules {
		rule := r.(map[string]any)
		groups, _, _ := unstructured.NestedStringSlice(rule, "apiGroups")
		resources, _, _ := unstructured.NestedStringSlice(rule, "resources")
		verbs, _, _ := unstructured.NestedStringSlice(rule, "verbs")
		if slices.Contains(groups, group) && slices.Contains(resources, resource) && (slices.Contains(verbs, verb) || slices.Contains(verbs, "*")) {
			return true
		}
	}
	return false
}

// Webhook paths match the generated manifests; the default certificate is
// valid for the webhook Service and signed by the caBundle.
func TestChartWebhookAndCertificate(t *testing.T) {
	eachChart(t, func(t *testing.T, c chart) {
		objs := render(t, c)
		raw, err := os.ReadFile(filepath.Join(repoRoot(t), c.name, "config", "webhook", "manifests.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		generated := decode(t, string(raw))
		for _, kind := range []string{"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"} {
			chart := get(t, objs, kind+"/"+c.fullname())
			var gen *unstructured.Unstructured
			for k, o := range generated {
				if strings.HasPrefix(k, kind+"/") {
					gen = o
				}
			}
			if gen == nil {
				t.Fatalf("no generated %s", kind)
			}
			if got, want := webhookPaths(chart), webhookPaths(gen); !cmp.Equal(got, want) {
				t.Errorf("%s paths %v, generated %v", kind, got, want)
			}
			// Names, rules and side effects are the generated ones verbatim.
			for _, field := range []string{"name", "rules", "sideEffects", "admissionReviewVersions"} {
				if got, want := hookField(chart, field), hookField(gen, field); !cmp.Equal(normalize(t, got), normalize(t, want)) {
					t.Errorf("%s %s %v, generated %v", kind, field, got, want)
				}
			}
			for _, r := range c.admitted(kind) {
				if !strings.Contains(toYAML(t, hookField(chart, "rules")), "- "+r+"\n") {
					t.Errorf("%s admits no %s", kind, r)
				}
			}
		}
		mut := get(t, objs, "MutatingWebhookConfiguration/"+c.fullname())
		hooks, _, _ := unstructured.NestedSlice(mut.Object, "webhooks")
		caB64, _, _ := unstructured.NestedString(hooks[0].(map[string]any), "clientConfig", "caBundle")
		secret := get(t, objs, "Secret/"+c.fullname()+"-webhook-cert")
		tlsB64, _, _ := unstructured.NestedString(secret.Object, "data", "tls.crt")
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM(b64(t, caB64)) {
			t.Fatal("caBundle holds no certificate")
		}
		block, _ := pem.Decode(b64(t, tlsB64))
		if block == nil {
			t.Fatal("tls.crt holds no PEM")
		}
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, DNSName: c.fullname() + "-webhook." + c.namespace + ".svc"}); err != nil {
			t.Errorf("serving certificate does not verify for the webhook Service: %v", err)
		}
	})
}

// With webhook.url the API server calls the operator at that URL (an
// operator run outside the cluster), and the certificate names its host.
func TestChartWebhookURL(t *testing.T) {
	eachChart(t, func(t *testing.T, c chart) {
		objs := render(t, c, "--set", "webhook.url=https://127.0.0.1:9443/")
		var caB64 string
		for _, kind := range []string{"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"} {
			hooks, _, _ := unstructured.NestedSlice(get(t, objs, kind+"/"+c.fullname()).Object, "webhooks")
			if len(hooks) != len(c.admitted(kind)) {
				t.Fatalf("%s has %d webhooks, want one per kind %v", kind, len(hooks), c.admitted(kind))
			}
			for _, h := range hooks {
				cc := h.(map[string]any)["clientConfig"].(map[string]any)
				url, _ := cc["url"].(string)
				if !regexp.MustCompile(`^https://127\.0\.0\.1:9443/(mutate|validate)-[a-z]+-openstack-c5c3-io-v1alpha1-[a-z]+$`).MatchString(url) {
					t.Errorf("%s url = %q", kind, url)
				}
				if _, ok := cc["service"]; ok {
					t.Errorf("%s names the Service as well as the URL", kind)
				}
				caB64, _ = cc["caBundle"].(string)
			}
		}
		tlsB64, _, _ := unstructured.NestedString(get(t, objs, "Secret/"+c.fullname()+"-webhook-cert").Object, "data", "tls.crt")
		roots := x509.NewCertPool()
		if !roots.AppendCertsFromPEM(b64(t, caB64)) {
			t.Fatal("caBundle holds no certificate")
		}
		block, _ := pem.Decode(b64(t, tlsB64))
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, DNSName: "127.0.0.1"}); err != nil {
			t.Errorf("serving certificate does not verify for the URL's host: %v", err)
		}
	})
}

func TestChartCertManagerAndOptionalObjects(t *testing.T) {
	eachChart(t, func(t *testing.T, c chart) {
		objs := render(t, c, "--set", "webhook.certManager.enabled=true", "--set", "metrics.serviceMonitor.enabled=true",
			"--set", "networkPolicy.enabled=true", "--set", "podDisruptionBudget.enabled=true")
		get(t, objs, "Certificate/"+c.fullname()+"-webhook")
		get(t, objs, "Issuer/"+c.fullname()+"-webhook-selfsigned")
		get(t, objs, "ServiceMonitor/"+c.fullname())
		get(t, objs, "NetworkPolicy/"+c.fullname())
		get(t, objs, "PodDisruptionBudget/"+c.fullname())
		if _, ok := objs["Secret/"+c.fullname()+"-webhook-cert"]; ok {
			t.Errorf("chart-generated certificate rendered although cert-manager issues it")
		}
		mut := get(t, objs, "MutatingWebhookConfiguration/"+c.fullname())
		if mut.GetAnnotations()["cert-manager.io/inject-ca-from"] != c.namespace+"/"+c.fullname()+"-webhook" {
			t.Errorf("inject-ca-from = %q", mut.GetAnnotations()["cert-manager.io/inject-ca-from"])
		}
	})
}

func TestChartSchemaRejectsBadValues(t *testing.T) {
	eachChart(t, func(t *testing.T, c chart) {
		cases := map[string][]string{
			"negative replicas":       {"--set", "replicaCount=-1"},
			"unknown failurePolicy":   {"--set", "webhook.failurePolicy=Sometimes"},
			"bad duration":            {"--set", "operator.syncPeriod=soon"},
			"bad lease duration":      {"--set", "leaderElection.leaseDuration=15"},
			"unknown key":             {"--set", "operator.frobnicate=true"},
			"port out of range":       {"--set", "metrics.port=70000"},
			"bad digest":              {"--set", "image.digest=latest"},
			"zero reconciles":         {"--set", "operator.maxConcurrentReconciles=0"},
			"bad cluster domain":      {"--set", "operator.clusterDomain=Cluster_Local"},
			"probe flag not a bool":   {"--set-string", "operator.probeViaAPIServer=yes"},
			"plain-http webhook":      {"--set", "webhook.url=http://127.0.0.1:9443"},
			"webhook url with path":   {"--set", "webhook.url=https://127.0.0.1:9443/hooks"},
			"bad watched namespace":   {"--set", "operator.watchNamespaces={openstack,Team_A}"},
			"watched namespace twice": {"--set", "operator.watchNamespaces={openstack,openstack}"},
			"bad alert duration":      {"--set", "metrics.prometheusRule.notReadyFor=15 minutes"},
			"Go-style alert duration": {"--set", "metrics.prometheusRule.notReadyFor=1.5h"},
		}
		for name, args := range cases {
			t.Run(name, func(t *testing.T) {
				_, err := helm(t, append([]string{"template", c.release, "charts/" + c.name, "--kube-version", kubeVersion}, args...)...)
				if err == nil || !strings.Contains(err.Error(), "values don't meet the specifications of the schema") {
					t.Errorf("err = %v, want a schema violation", err)
				}
			})
		}
	})
}

// hookField lists field of each webhook of a webhook configuration.
func hookField(o *unstructured.Unstructured, field string) []any {
	hooks, _, _ := unstructured.NestedSlice(o.Object, "webhooks")
	var out []any
	for _, h := range hooks {
		out = append(out, h.(map[string]any)[field])
	}
	return out
}

func webhookPaths(o *unstructured.Unstructured) []string {
	hooks, _, _ := unstructured.NestedSlice(o.Object, "webhooks")
	var out []string
	for _, h := range hooks {
		p, _, _ := unstructured.NestedString(h.(map[string]any), "clientConfig", "service", "path")
		out = append(out, p)
	}
	return out
}

func toStrings(v any) []string {
	var out []string
	for _, s := range v.([]any) {
		out = append(out, s.(string))
	}
	return out
}

func toYAML(t *testing.T, v any) string {
	t.Helper()
	b, err := yaml.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// normalize round-trips through YAML so both sides have the same types.
func normalize(t *testing.T, v any) any {
	t.Helper()
	var out any
	if err := yaml.Unmarshal([]byte(toYAML(t, v)), &out); err != nil {
		t.Fatal(err)
	}
	return out
}

func b64(t *testing.T, s string) []byte {
	t.Helper()
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
