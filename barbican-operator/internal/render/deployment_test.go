package render_test

import (
	"maps"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// envSources maps each variable to "<secret>/<key>"; a literal value maps to "=".
func envSources(c corev1.Container) map[string]string {
	out := map[string]string{}
	for _, e := range c.Env {
		if e.ValueFrom == nil || e.ValueFrom.SecretKeyRef == nil {
			out[e.Name] = "="
			continue
		}
		out[e.Name] = e.ValueFrom.SecretKeyRef.Name + "/" + e.ValueFrom.SecretKeyRef.Key
	}
	return out
}

func TestDeployment(t *testing.T) {
	for _, tc := range renderCases() {
		t.Run(tc.name, func(t *testing.T) {
			d := render.Deployment(tc.b, testConfigSecret, tc.store, tc.digests)
			pod := d.Spec.Template.Spec
			api := pod.Containers[0]
			if d.Name != tc.b.Name || api.Name != "barbican-api" || len(pod.Containers) != 1 {
				t.Errorf("Deployment %s container %s (%d containers)", d.Name, api.Name, len(pod.Containers))
			}
			if len(api.Ports) != 1 || api.Ports[0].ContainerPort != 9311 {
				t.Errorf("ports = %v, want 9311", api.Ports)
			}
			wantEnv := map[string]string{
				"OS_DATABASE__CONNECTION":            tc.b.Name + "-db-connection/connection",
				"OS_KEYSTONE_AUTHTOKEN__PASSWORD":    "barbican-keystone/password",
				"OS_VAULT_PLUGIN__APPROLE_SECRET_ID": tc.store.CredentialsSecret + "/secret-id",
			}
			if got := envSources(api); !maps.Equal(got, wantEnv) {
				t.Errorf("env = %v, want %v", got, wantEnv)
			}
			wantMounts := map[string]string{"config": "/etc/barbican ro"}
			if tc.store.CASecret != "" {
				wantMounts["secret-store-ca"] = "/etc/barbican-secret-store-ca ro"
			}
			if tc.b.Spec.Database.TLS != nil {
				wantMounts["db-tls"] = "/etc/barbican-db-tls/ ro"
			}
			if got := testenv.Mounts(api); !maps.Equal(got, wantMounts) {
				t.Errorf("mounts = %v, want %v", got, wantMounts)
			}
			if len(pod.Volumes) != len(wantMounts) {
				t.Errorf("%d volumes for %d mounts", len(pod.Volumes), len(wantMounts))
			}
			cfg := testenv.Volume(pod.Volumes, "config")
			if cfg == nil || cfg.Secret == nil || cfg.Secret.SecretName != testConfigSecret || cfg.ConfigMap != nil {
				t.Errorf("config volume = %+v, want Secret %s", cfg, testConfigSecret)
			}
			if ca := testenv.Volume(pod.Volumes, "secret-store-ca"); ca != nil {
				s := ca.Secret
				if s == nil || s.SecretName != tc.store.CASecret || len(s.Items) != 1 || s.Items[0].Key != "ca.crt" ||
					s.Items[0].Path != "ca.crt" || s.DefaultMode == nil || *s.DefaultMode != 0o444 {
					t.Errorf("CA volume = %+v, want ca.crt of %s at 0444", ca, tc.store.CASecret)
				}
			}
			wantAnn := map[string]string{}
			for k, v := range map[string]string{
				"barbican.c5c3.io/authtoken-hash":                tc.digests.Authtoken,
				"barbican.c5c3.io/db-connection-hash":            tc.digests.DBConnection,
				"barbican.c5c3.io/secret-store-credentials-hash": tc.digests.StoreCredentials,
			} {
				if v != "" {
					wantAnn[k] = v
				}
			}
			if got := d.Spec.Template.Annotations; !maps.Equal(got, wantAnn) {
				t.Errorf("pod annotations = %v, want %v", got, wantAnn)
			}
			if (d.Spec.Replicas == nil) != (tc.b.Spec.Autoscaling != nil) {
				t.Errorf("replicas %v with autoscaling %v", d.Spec.Replicas, tc.b.Spec.Autoscaling != nil)
			}
			if d.Spec.Template.Labels["app.kubernetes.io/component"] != "api" || d.Labels["app.kubernetes.io/managed-by"] != "barbican-operator" {
				t.Errorf("labels = %v / %v", d.Labels, d.Spec.Template.Labels)
			}
			sc := api.SecurityContext
			if sc == nil || *sc.RunAsUser != 42403 || !*sc.ReadOnlyRootFilesystem || *sc.AllowPrivilegeEscalation {
				t.Errorf("security context = %+v", sc)
			}
		})
	}
}

// All three probes GET /healthcheck on 9311; the startup probe allows
// 30 × 10 s with an 8 s timeout per try.
func TestDeploymentProbes(t *testing.T) {
	api := render.Deployment(minimal(), testConfigSecret, render.StoreMount{}, render.Digests{}).Spec.Template.Spec.Containers[0]
	for name, p := range map[string]*corev1.Probe{"startup": api.StartupProbe, "liveness": api.LivenessProbe, "readiness": api.ReadinessProbe} {
		if p == nil || p.HTTPGet == nil || p.HTTPGet.Path != "/healthcheck" || p.HTTPGet.Port.IntValue() != 9311 {
			t.Errorf("%s probe = %+v, want GET /healthcheck on 9311", name, p)
		}
	}
	if s := api.StartupProbe; s.PeriodSeconds != 10 || s.FailureThreshold != 30 || s.TimeoutSeconds != 8 {
		t.Errorf("startup probe period %d × %d, timeout %d; want 10 × 30, timeout 8", s.PeriodSeconds, s.FailureThreshold, s.TimeoutSeconds)
	}
	if api.StartupProbe.HTTPGet == api.LivenessProbe.HTTPGet {
		t.Error("startup and liveness probes share one HTTPGet")
	}
}

// Without a store Secret nothing is mounted or sourced from it; no
// variable ever carries a literal value.
func TestDeploymentWithoutStoreSecrets(t *testing.T) {
	api := render.Deployment(minimal(), testConfigSecret, render.StoreMount{}, render.Digests{}).Spec.Template.Spec.Containers[0]
	env := envSources(api)
	if _, ok := env["OS_VAULT_PLUGIN__APPROLE_SECRET_ID"]; ok {
		t.Error("secret-id variable without a credentials Secret")
	}
	if _, ok := testenv.Mounts(api)["secret-store-ca"]; ok {
		t.Error("CA mounted without a CA Secret")
	}
	for _, tc := range renderCases() {
		for name, src := range envSources(render.Deployment(tc.b, testConfigSecret, tc.store, tc.digests).Spec.Template.Spec.Containers[0]) {
			if src == "=" || strings.HasPrefix(src, "/") {
				t.Errorf("%s: %s is not sourced from a Secret (%s)", tc.name, name, src)
			}
		}
	}
}
