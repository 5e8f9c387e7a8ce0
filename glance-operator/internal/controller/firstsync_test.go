package controller_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// The first db sync waits until every attached backend has been checked:
// a db-sync Job rendered while a backend was not would name fewer stores,
// and that backend's verdict would replace it. The test holds "archive"
// unchecked once the Job of both stores exists, by writing its status
// without a verdict; the backend controller writes its verdict back on its
// next wake-up (the Glance's status write is one), so the test watches the
// Glance for the wait and writes the status again until it has seen it.
// The Glance waits instead of rendering a config without archive, and the
// one Job, of both stores, is the one that runs.
func TestFirstDBSyncWaitsForEveryBackendCheck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	ns := suite.Namespace(t)
	inputs(t, ns)
	g := newGlance(ns, "glance")
	api.Set(ns, g.Name, testenv.FakeAPI(t, http.StatusOK, 0))
	twoBackends(t, ns, g.Name)
	must(t, k8s.Create(ctx, g))
	suite.ProvisionDatabase(t, ns, g.Name)
	var first types.UID
	suite.Eventually(t, "the db-sync Job", func() error {
		if first = jobUID(t, ns, g.Name+"-db-sync"); first == "" {
			return errors.New("no db-sync Job yet")
		}
		return nil
	})

	// Each status the Glance goes through: the wait may last only until
	// the backend controller's next verdict.
	wc, err := client.NewWithWatch(cfg, client.Options{Scheme: k8s.Scheme()})
	must(t, err)
	w, err := wc.Watch(ctx, &glancev1.GlanceList{}, client.InNamespace(ns))
	must(t, err)
	defer w.Stop()
	const wait = "check archive before the first db sync"
	waited := make(chan struct{})
	go func() {
		for ev := range w.ResultChan() {
			if g, ok := ev.Object.(*glancev1.Glance); ok {
				if c := condition(g, conditions.TypeDatabaseReady); c != nil && c.Reason == glancev1.ReasonWaitingForBackends && strings.Contains(c.Message, wait) {
					close(waited)
					return
				}
			}
		}
	}()
	suite.Eventually(t, "the first db sync waiting for archive", func() error {
		select {
		case <-waited:
			return nil
		default:
		}
		// The status write wakes the Glance (its backend watch has no
		// generation filter) but not the backend controller.
		b := getBackend(t, ns, "archive")
		if meta.RemoveStatusCondition(&b.Status.Conditions, glancev1.ConditionCredentialsReady) {
			if err := k8s.Status().Update(ctx, b); err != nil {
				return err
			}
		}
		return errors.New("no DatabaseReady=False/WaitingForBackends naming archive yet")
	})
	if now := jobUID(t, ns, g.Name+"-db-sync"); now != first {
		t.Fatalf("the db-sync Job was replaced (%s → %s) while archive was unchecked", first, now)
	}

	// The backend controller checks archive again; the Job goes on.
	if n := finishDBSync(t, ns, g.Name, true); n != 1 {
		t.Errorf("%d db-sync Jobs ran, want the one of both stores", n)
	}
	if now := jobUID(t, ns, g.Name+"-db-sync"); now != first {
		t.Errorf("the db-sync Job that ran is %s, want the first, %s", now, first)
	}
	suite.RollOut(t, ns, g.Name)
	waitCondition(t, ns, g.Name, conditions.TypeReady, metav1.ConditionTrue, "AllReady")
}
