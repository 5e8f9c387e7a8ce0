package charts

import (
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

func TestPlacementChartLints(t *testing.T) {
	if out, err := helm(t, "lint", "--strict", "charts/placement-operator"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

func TestPlacementChartDefaults(t *testing.T) {
	objs := render(t)
	get(t, objs, "CustomResourceDefinition/placements.placement.openstack.c5c3.io")
	d := get(t, objs, "Deployment/placement-placement-operator")
	pod, _, _ := unstructured.NestedMap(d.Object, "spec", "template", "spec")
	c := pod["containers"].([]any)[0].(map[string]any)

	if got, _, _ := unstructured.NestedBool(pod, "securityContext", "runAsNonRoot"); !got {
		t.Errorf("pod runAsNonRoot not set")
	}
	sc := c["securityContext"].(map[string]any)
	want := map[string]any{
		"runAsNonRoot": true, "runAsUser": float64(65532), "runAsGroup": float64(65532),
		"allowPrivilegeEscalation": false, "readOnlyRootFilesystem": true,
		"capabilities":   map[string]any{"drop": []any{"ALL"}},
		"seccompProfile": map[string]any{"type": "RuntimeDefault"},
	}
	if diff := cmp.Diff(want, sc); diff != "" {
		t.Errorf("container securityContext (-want +got):\n%s", diff)
	}
	args := strings.Join(toStrings(c["args"]), " ")
	for _, a := range []string{"--leader-elect=true", "--metrics-bind-address=:8080", "--enable-webhooks=true",
		"--webhook-cert-dir=/tmp/k8s-webhook-server/serving-certs", "--clusters-namespace=c5c3-clusters",
		"--cluster-domain=cluster.local", "--probe-via-apiserver=false"} {
		if !strings.Contains(args, a) {
			t.Errorf("args %q lack %s", args, a)
		}
	}
	if p, _, _ := unstructured.NestedString(c, "livenessProbe", "httpGet", "path"); p != "/healthz" {
		t.Errorf("liveness path %q", p)
	}
	if p, _, _ := unstructured.NestedString(c, "readinessProbe", "httpGet", "path"); p != "/readyz" {
		t.Errorf("readiness path %q", p)
	}
	if !strings.Contains(toYAML(t, c["env"]), "metadata.namespace") {
		t.Errorf("POD_NAMESPACE not from the downward API")
	}
	for _, absent := range []string{"ServiceMonitor/placement-placement-operator", "NetworkPolicy/placement-placement-operator", "PodDisruptionBudget/placement-placement-operator"} {
		if _, ok := objs[absent]; ok {
			t.Errorf("%s rendered though disabled by default", absent)
		}
	}
}

// operator.clusterDomain and operator.probeViaAPIServer reach the flags.
func TestPlacementChartProbeValues(t *testing.T) {
	objs := render(t, "--set", "operator.clusterDomain=corp.example", "--set", "operator.probeViaAPIServer=true")
	d := get(t, objs, "Deployment/placement-placement-operator")
	containers, _, _ := unstructured.NestedSlice(d.Object, "spec", "template", "spec", "containers")
	args := toStrings(containers[0].(map[string]any)["args"])
	for _, a := range []string{"--cluster-domain=corp.example", "--probe-via-apiserver=true"} {
		if !slices.Contains(args, a) {
			t.Errorf("args %q lack %s", args, a)
		}
	}
}

// The ClusterRole carries exactly the rules controller-gen derived from the markers.
func TestPlacementChartRBACIsGenerated(t *testing.T) {
	objs := render(t)
	role := get(t, objs, "ClusterRole/placement-placement-operator")
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "placement-operator", "config", "rbac", "role.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var generated map[string]any
	if err := yaml.Unmarshal(raw, &generated); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(normalize(t, generated["rules"]), normalize(t, role.Object["rules"])); diff != "" {
		t.Errorf("chart ClusterRole differs from the generated rules (-generated +chart):\n%s", diff)
	}
	if _, ok := objs["Role/placement-placement-operator-leader-election"]; !ok {
		t.Errorf("leader-election Role missing")
	}
	// operator.probeViaAPIServer sends the probe through services/proxy: the
	// ServiceAccount must be allowed to GET it, or every probe answers 403.
	if !grants(t, role, "", "services/proxy", "get") {
		t.Errorf("ClusterRole does not grant get on services/proxy")
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
func TestPlacementChartWebhookAndCertificate(t *testing.T) {
	objs := render(t)
	raw, err := os.ReadFile(filepath.Join(repoRoot(t), "placement-operator", "config", "webhook", "manifests.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	generated := decode(t, string(raw))
	for _, kind := range []string{"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"} {
		chart := get(t, objs, kind+"/placement-placement-operator")
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
	}
	mut := get(t, objs, "MutatingWebhookConfiguration/placement-placement-operator")
	hooks, _, _ := unstructured.NestedSlice(mut.Object, "webhooks")
	caB64, _, _ := unstructured.NestedString(hooks[0].(map[string]any), "clientConfig", "caBundle")
	secret := get(t, objs, "Secret/placement-placement-operator-webhook-cert")
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
	if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, DNSName: "placement-placement-operator-webhook.placement-system.svc"}); err != nil {
		t.Errorf("serving certificate does not verify for the webhook Service: %v", err)
	}
}

// With webhook.url the API server calls the operator at that URL (an
// operator run outside the cluster), and the certificate names its host.
func TestPlacementChartWebhookURL(t *testing.T) {
	objs := render(t, "--set", "webhook.url=https://127.0.0.1:9443/")
	var caB64 string
	for _, kind := range []string{"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration"} {
		hooks, _, _ := unstructured.NestedSlice(get(t, objs, kind+"/placement-placement-operator").Object, "webhooks")
		cc := hooks[0].(map[string]any)["clientConfig"].(map[string]any)
		url, _ := cc["url"].(string)
		if !strings.HasPrefix(url, "https://127.0.0.1:9443/") || strings.Contains(url, "9443//") || !strings.HasSuffix(url, "-placement-openstack-c5c3-io-v1alpha1-placement") {
			t.Errorf("%s url = %q", kind, url)
		}
		if _, ok := cc["service"]; ok {
			t.Errorf("%s names the Service as well as the URL", kind)
		}
		caB64, _ = cc["caBundle"].(string)
	}
	tlsB64, _, _ := unstructured.NestedString(get(t, objs, "Secret/placement-placement-operator-webhook-cert").Object, "data", "tls.crt")
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
}

func TestPlacementChartCertManagerAndOptionalObjects(t *testing.T) {
	objs := render(t, "--set", "webhook.certManager.enabled=true", "--set", "metrics.serviceMonitor.enabled=true",
		"--set", "networkPolicy.enabled=true", "--set", "podDisruptionBudget.enabled=true")
	get(t, objs, "Certificate/placement-placement-operator-webhook")
	get(t, objs, "Issuer/placement-placement-operator-webhook-selfsigned")
	get(t, objs, "ServiceMonitor/placement-placement-operator")
	get(t, objs, "NetworkPolicy/placement-placement-operator")
	get(t, objs, "PodDisruptionBudget/placement-placement-operator")
	if _, ok := objs["Secret/placement-placement-operator-webhook-cert"]; ok {
		t.Errorf("chart-generated certificate rendered although cert-manager issues it")
	}
	mut := get(t, objs, "MutatingWebhookConfiguration/placement-placement-operator")
	if mut.GetAnnotations()["cert-manager.io/inject-ca-from"] != "placement-system/placement-placement-operator-webhook" {
		t.Errorf("inject-ca-from = %q", mut.GetAnnotations()["cert-manager.io/inject-ca-from"])
	}
}

func TestPlacementChartSchemaRejectsBadValues(t *testing.T) {
	cases := map[string][]string{
		"negative replicas":     {"--set", "replicaCount=-1"},
		"unknown failurePolicy": {"--set", "webhook.failurePolicy=Sometimes"},
		"bad duration":          {"--set", "operator.syncPeriod=soon"},
		"unknown key":           {"--set", "operator.frobnicate=true"},
		"port out of range":     {"--set", "metrics.port=70000"},
		"bad digest":            {"--set", "image.digest=latest"},
		"zero reconciles":       {"--set", "operator.maxConcurrentReconciles=0"},
		"bad cluster domain":    {"--set", "operator.clusterDomain=Cluster_Local"},
		"probe flag not a bool": {"--set-string", "operator.probeViaAPIServer=yes"},
		"plain-http webhook":    {"--set", "webhook.url=http://127.0.0.1:9443"},
		"webhook url with path": {"--set", "webhook.url=https://127.0.0.1:9443/hooks"},
	}
	for name, args := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := helm(t, append([]string{"template", "placement", "charts/placement-operator", "--kube-version", kubeVersion}, args...)...)
			if err == nil || !strings.Contains(err.Error(), "values don't meet the specifications of the schema") {
				t.Errorf("err = %v, want a schema violation", err)
			}
		})
	}
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
