package controller_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/configartifact"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

func configMaps(t *testing.T, ns string) []corev1.ConfigMap {
	t.Helper()
	var list corev1.ConfigMapList
	must(t, k8s.List(context.Background(), &list, client.InNamespace(ns), client.MatchingLabels{configartifact.BaseLabel: "placement-config"}))
	return list.Items
}

// Every config change writes a new immutable generation; three survive.
func TestConfigHistoryPrunedToThree(t *testing.T) {
	t.Parallel()
	ns := namespace(t)
	inputs(t, ns)
	toReady(t, ns, newPlacement(ns, "placement"))
	for i := 1; i <= 4; i++ {
		update(t, ns, "placement", func(p *placementv1.Placement) {
			p.Spec.ExtraConfig = map[string]map[string]string{"placement": {"max_allocation_candidates": fmt.Sprint(1000 + i)}}
		})
		eventually(t, "new generation", func() error {
			for _, cm := range configMaps(t, ns) {
				if strings.Contains(cm.Data["placement.conf"], fmt.Sprint(1000+i)) {
					return nil
				}
			}
			return errorf("generation %d not written", i)
		})
	}
	eventually(t, "history pruned", func() error {
		if n := len(configMaps(t, ns)); n != 3 {
			return errorf("%d config generations, want 3", n)
		}
		return nil
	})
}

// An owned key override is honoured, reported and never holds Ready down.
func TestExtraConfigOwnedKeyOverride(t *testing.T) {
	t.Parallel()
	ns := namespace(t)
	inputs(t, ns)
	p := newPlacement(ns, "placement")
	p.Spec.ExtraConfig = map[string]map[string]string{"DEFAULT": {"debug": "true"}}
	got := toReady(t, ns, p)
	c := findCondition(got, placementv1.ConditionExtraConfigHealthy)
	if c == nil || c.Status != metav1.ConditionFalse || c.Reason != "OwnedKeysOverridden" || !strings.Contains(c.Message, "[DEFAULT] debug") {
		t.Fatalf("ExtraConfigHealthy = %+v", c)
	}
	if eventReasons(t, ns, "placement")["ExtraConfigOwnedKeyOverride"] != 1 {
		t.Errorf("want exactly one ExtraConfigOwnedKeyOverride event, got %v", eventReasons(t, ns, "placement"))
	}
	cms := configMaps(t, ns)
	if len(cms) != 1 || !strings.Contains(cms[0].Data["placement.conf"], "debug = true") {
		t.Errorf("override not rendered")
	}
}

// Dynamic credentials: the Database is provisioned, User and Grant are not,
// and the DSN uses the Secret's username.
func TestDynamicCredentials(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := namespace(t)
	inputs(t, ns)
	p := newPlacement(ns, "placement")
	p.Spec.Database.CredentialsMode = serviceapi.CredentialsDynamic
	api.Set(ns, p.Name, FakeAPI(t, 200, 0))
	must(t, k8s.Create(ctx, p))
	eventually(t, "Database ready", func() error { return sqlReady(testenv.MariaDBDatabase(ns, p.Name)) })
	finishJob(t, ns, p.Name, true)
	rollOut(t, ns, p.Name)
	waitCondition(t, ns, p.Name, placementv1.ConditionReady, metav1.ConditionTrue, "AllReady")
	if exists(t, testenv.MariaDBUser(ns, p.Name)) || exists(t, testenv.MariaDBGrant(ns, p.Name)) {
		t.Errorf("User/Grant provisioned under Dynamic credentials")
	}
	var dsn corev1.Secret
	must(t, k8s.Get(ctx, client.ObjectKey{Namespace: ns, Name: "placement-db-connection"}, &dsn))
	if !strings.HasPrefix(string(dsn.Data["connection"]), "mysql+pymysql://placement:db-secret@") {
		t.Errorf("DSN %q does not use the Secret's username", dsn.Data["connection"])
	}
}
