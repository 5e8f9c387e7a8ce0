package controller_test

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/configartifact"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
)

func TestFreshInstallReachesReady(t *testing.T) {
	ns := namespace(t)
	inputs(t, ns)
	p := toReady(t, ns, newPlacement(ns, "placement"))

	if p.Status.InstalledRelease != "2025.2" || p.Status.InstalledImage != "registry.example.org/openstack/placement:2025.2" {
		t.Errorf("installed = %q / %q", p.Status.InstalledRelease, p.Status.InstalledImage)
	}
	if p.Status.TargetRelease != "" {
		t.Errorf("targetRelease = %q, want empty on a first install", p.Status.TargetRelease)
	}
	if want := "http://placement." + ns + ".svc." + clusterDomain + ":8778/"; p.Status.Endpoint != want {
		t.Errorf("endpoint = %q, want %q", p.Status.Endpoint, want)
	}
	if p.Status.ObservedGeneration != p.Generation {
		t.Errorf("observedGeneration %d != generation %d", p.Status.ObservedGeneration, p.Generation)
	}
	for _, c := range []string{placementv1.ConditionSecretsReady, placementv1.ConditionDatabaseReady, placementv1.ConditionDeploymentReady,
		placementv1.ConditionPlacementAPIReady, placementv1.ConditionHPAReady, placementv1.ConditionNetworkPolicyReady,
		placementv1.ConditionHTTPRouteReady, placementv1.ConditionExtraConfigHealthy} {
		waitCondition(t, ns, "placement", c, metav1.ConditionTrue, expectedTrueReason[c])
	}
	if !strings.Contains(strings.Join(p.Finalizers, ","), placementv1.Finalizer) {
		t.Errorf("finalizers = %v", p.Finalizers)
	}

	var dsn corev1.Secret
	must(t, k8s.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: "placement-db-connection"}, &dsn))
	want := "mysql+pymysql://placement:db-secret@mariadb." + ns + ".svc:3306/placement?charset=utf8"
	if got := string(dsn.Data["connection"]); got != want {
		t.Errorf("DSN = %q, want %q", got, want)
	}
	var cms corev1.ConfigMapList
	must(t, k8s.List(context.Background(), &cms, client.InNamespace(ns), client.MatchingLabels{configartifact.BaseLabel: "placement-config"}))
	if len(cms.Items) != 1 || cms.Items[0].Immutable == nil || !*cms.Items[0].Immutable {
		t.Fatalf("config ConfigMaps = %d, want one immutable", len(cms.Items))
	}
	d := deployment(t, ns, "placement")
	if d.Spec.Template.Spec.Volumes[0].ConfigMap.Name != cms.Items[0].Name {
		t.Errorf("Deployment mounts %q, want %q", d.Spec.Template.Spec.Volumes[0].ConfigMap.Name, cms.Items[0].Name)
	}
	ann := d.Spec.Template.Annotations
	if ann["placement.c5c3.io/authtoken-hash"] == "" || ann["placement.c5c3.io/db-connection-hash"] == "" {
		t.Errorf("rollout annotations missing: %v", ann)
	}
	if reasons := eventReasons(t, ns, "placement"); reasons["DatabaseSynced"] == 0 {
		t.Errorf("no DatabaseSynced event: %v", reasons)
	}
}

var expectedTrueReason = map[string]string{
	placementv1.ConditionSecretsReady:       "SecretsAvailable",
	placementv1.ConditionDatabaseReady:      "DatabaseSynced",
	placementv1.ConditionDeploymentReady:    "DeploymentReady",
	placementv1.ConditionPlacementAPIReady:  "APIHealthy",
	placementv1.ConditionHPAReady:           "HPANotRequired",
	placementv1.ConditionNetworkPolicyReady: "NetworkPolicyNotRequired",
	placementv1.ConditionHTTPRouteReady:     "HTTPRouteNotRequired",
	placementv1.ConditionExtraConfigHealthy: "NoOwnedKeysOverridden",
}
