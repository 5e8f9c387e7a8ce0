package controller_test

import (
	"context"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

var expectedTrueReason = map[string]string{
	conditions.TypeSecretsReady:       "SecretsAvailable",
	glancev1.ConditionBackendsReady:   "AllBackendsProjected",
	conditions.TypeDatabaseReady:      "DatabaseSynced",
	conditions.TypeDeploymentReady:    "DeploymentReady",
	glancev1.ConditionGlanceAPIReady:  "APIHealthy",
	conditions.TypeHPAReady:           "HPANotRequired",
	conditions.TypeNetworkPolicyReady: "NetworkPolicyNotRequired",
	conditions.TypeHTTPRouteReady:     "HTTPRouteNotRequired",
	glancev1.ConditionDBPurgeReady:    "DBPurgeScheduled",
	conditions.TypeExtraConfigHealthy: "NoOwnedKeysOverridden",
}

func TestFreshInstallWithTwoBackendsReachesReady(t *testing.T) {
	ns := suite.Namespace(t)
	inputs(t, ns)
	g := toReady(t, ns, newGlance(ns, "glance"))

	if g.Status.InstalledRelease != "2025.2" || g.Status.InstalledImage != "registry.example.org/openstack/glance:2025.2" || g.Status.UpgradePhase != "" {
		t.Errorf("installed = %q / %q, phase %q", g.Status.InstalledRelease, g.Status.InstalledImage, g.Status.UpgradePhase)
	}
	if want := "http://glance." + ns + ".svc." + clusterDomain + ":9292/"; g.Status.Endpoint != want {
		t.Errorf("endpoint = %q, want %q", g.Status.Endpoint, want)
	}
	for c, reason := range expectedTrueReason {
		waitCondition(t, ns, "glance", c, metav1.ConditionTrue, reason)
	}
	for _, b := range []string{"fast", "archive"} {
		waitBackend(t, ns, b, glancev1.ConditionCredentialsReady, metav1.ConditionTrue, glancev1.ReasonCredentialsAvailable)
		waitBackend(t, ns, b, glancev1.ConditionConfigProjected, metav1.ConditionTrue, glancev1.ReasonConfigProjected)
		waitBackend(t, ns, b, "Ready", metav1.ConditionTrue, "AllReady")
	}

	d := deployment(t, ns, "glance")
	var backends, config string
	for _, v := range d.Spec.Template.Spec.Volumes {
		switch {
		case v.Name == render.BackendsVolume:
			backends = v.Secret.SecretName
		case v.ConfigMap != nil:
			config = v.ConfigMap.Name
		}
	}
	var sec corev1.Secret
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: backends}, &sec))
	conf := string(sec.Data[render.KeyBackendsConf])
	if !strings.Contains(conf, "[archive]") || !strings.Contains(conf, "[fast]") || !strings.Contains(conf, "s3-secret") {
		t.Errorf("backends.conf = %q", conf)
	}
	var cm corev1.ConfigMap
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: config}, &cm))
	api := cm.Data[render.KeyGlanceAPIConf]
	if !strings.Contains(api, "enabled_backends = archive:s3,fast:s3") || !strings.Contains(api, "default_backend = fast") {
		t.Errorf("glance-api.conf lacks the stores:\n%s", api)
	}
	if strings.Contains(api, "s3-secret") || strings.Contains(api, "db-secret") || strings.Contains(api, "ks-secret") {
		t.Error("a secret reached the config ConfigMap")
	}
	var cj batchv1.CronJob
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "glance-db-purge"}, &cj))
	if cj.Spec.ConcurrencyPolicy != batchv1.ForbidConcurrent {
		t.Errorf("CronJob concurrency %q", cj.Spec.ConcurrencyPolicy)
	}
	if reasons := suite.EventReasons(t, ns, "glance"); reasons["DatabaseSynced"] == 0 {
		t.Errorf("no DatabaseSynced event: %v", reasons)
	}
}
