// Package faults holds the fault scenarios of the operators' e2e suites,
// on the local control plane, against an operator's own CRs: a webhook
// that is down, children deleted by hand, an ESO store that turns not
// Ready, the database server stopped, kube-apiserver or etcd restarted
// under a running pipeline, a leader killed under a running pipeline
// (docs/operations.md says what each looks like from the outside); and the
// namespace-scoped install with exactly the chart's RBAC of that mode.
//
// Most scenarios exercise what lives in common (the manager and its
// leader election, the informers riding out a restart, the secret gates,
// the database provisioning and db-sync flow, the children's apply): one
// operator runs them all (Run). The two that exercise what each operator
// ships itself, its chart's webhook configuration and its chart's RBAC of
// the namespace-scoped mode, run for every operator (RunChart).
// docs/decisions/test-run-layout.md says which test covers which scenario
// for which operator, and why one operator is enough.
package faults

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/common/lib/workload"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/e2e/suite"
)

// Wait bounds each wait on progress (a rollout, a pass, the operator's
// start); a wait fails only when nothing happens for this long.
const Wait = 3 * time.Minute

// Subject is one operator's kind, as the scenarios need it.
type Subject[T any, P interface {
	*T
	client.Object
}] struct {
	Env *suite.Env
	// Site creates a new site's inputs and its CR as a user writes them
	// (named after the site); the scenarios wait for Ready themselves.
	Site func(t *testing.T) *suite.Site
	// Conditions reads a CR's status conditions.
	Conditions func(P) []metav1.Condition
	// New is a CR named name in namespace ns as a user writes it. The
	// scenarios create it where no inputs exist: it never gets further
	// than waiting for its Secrets.
	New func(ns, name string) P
	// Change makes a change to a CR's spec that the webhook admits.
	Change func(P)
	// Reconfigure makes an admitted change that changes the rendered
	// config: a new config artefact, so a new db-sync Job (ToggleDebug
	// where spec.logging is rendered).
	Reconfigure func(P)
}

// Run runs every scenario for the subject: the chart's (RunChart) and
// the shared mechanism's.
func Run[T any, P interface {
	*T
	client.Object
}](t *testing.T, s Subject[T, P]) {
	RunChart(t, s)
	t.Run("ChildrenDeleted", s.childrenDeleted)
	t.Run("StoreOutage", s.storeOutage)
	t.Run("DatabaseOutage", s.databaseOutage)
	t.Run("APIServerRestarted", s.controlPlaneRestarted("kube-apiserver"))
	t.Run("EtcdRestarted", s.controlPlaneRestarted("etcd"))
	t.Run("LeaderFailover", s.leaderFailover)
}

// RunChart runs the scenarios whose outcome depends on the operator's own
// chart: its webhook configuration (the API server refusing writes while
// the webhook is down) and its RBAC of the namespace-scoped mode.
func RunChart[T any, P interface {
	*T
	client.Object
}](t *testing.T, s Subject[T, P]) {
	t.Run("WebhookDown", s.webhookDown)
	t.Run("NamespaceScoped", s.namespaceScoped)
}

func (s Subject[T, P]) get(t *testing.T, key client.ObjectKey) P {
	t.Helper()
	obj := P(new(T))
	poll.Must(t, s.Env.K8s.Get(t.Context(), key, obj))
	return obj
}

func (s Subject[T, P]) ready(t *testing.T, key client.ObjectKey) {
	t.Helper()
	suite.WaitCondition(t, s.Env.K8s, key, s.Conditions, conditions.TypeReady, metav1.ConditionTrue, "", Wait)
}

// readySite creates a site and waits until its CR is Ready.
func (s Subject[T, P]) readySite(t *testing.T) (*suite.Site, client.ObjectKey) {
	t.Helper()
	site := s.Site(t)
	key := client.ObjectKey{Namespace: site.NS, Name: site.Name}
	s.ready(t, key)
	return site, key
}

// webhookRefusal is how the API server reports a webhook it cannot call.
const webhookRefusal = "failed calling webhook"

// With the operator stopped, the API server refuses every write of a CR
// (failurePolicy Fail): a create and a spec change, each with the webhook
// error, and neither is half-applied. Once the operator is back, the same
// writes succeed and the changed CR converges.
func (s Subject[T, P]) webhookDown(t *testing.T) {
	site, key := s.readySite(t)
	empty := "e2e-faults-" + strings.ToLower(site.Name)
	poll.Must(t, s.Env.K8s.Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: empty}}))

	poll.Must(t, s.Env.Op.Terminate())
	before := s.get(t, key)
	generation := before.GetGeneration()
	changed := before.DeepCopyObject().(P)
	s.Change(changed)
	fresh := s.New(empty, "fresh")
	for what, write := range map[string]func() error{
		"create": func() error { return s.Env.K8s.Create(t.Context(), s.New(empty, "fresh")) },
		"update": func() error { return s.Env.K8s.Update(t.Context(), changed.DeepCopyObject().(P)) },
	} {
		if err := write(); err == nil || !strings.Contains(err.Error(), webhookRefusal) {
			t.Fatalf("%s with the operator stopped: %v, want the API server's %q", what, err, webhookRefusal)
		}
	}
	if err := s.Env.K8s.Get(t.Context(), client.ObjectKeyFromObject(fresh), fresh); !apierrors.IsNotFound(err) {
		t.Errorf("the refused create left %s/%s (%v)", empty, fresh.GetName(), err)
	}
	if now := s.get(t, key); now.GetGeneration() != before.GetGeneration() || now.GetResourceVersion() != before.GetResourceVersion() {
		t.Errorf("the refused update changed the CR: generation %d → %d, resourceVersion %s → %s",
			before.GetGeneration(), now.GetGeneration(), before.GetResourceVersion(), now.GetResourceVersion())
	}

	poll.Must(t, s.Env.Op.Start())
	// The webhook server may start serving a moment after /readyz.
	poll.Until(t, Wait, func() error {
		return client.IgnoreAlreadyExists(s.Env.K8s.Create(t.Context(), s.New(empty, "fresh")))
	})
	poll.Update(t, s.Env.K8s, before, Wait, func() { s.Change(before) })
	if after := s.get(t, key); after.GetGeneration() == generation {
		t.Fatalf("the admitted update did not change the spec (generation %d)", after.GetGeneration())
	}
	s.ready(t, key)
	poll.Must(t, s.Env.K8s.Delete(t.Context(), fresh))
}

// A child deleted by hand (the Service, the db-connection Secret, the
// config artefact in use, the Deployment) comes back as it was; the pods
// keep running unless the Deployment itself was deleted.
func (s Subject[T, P]) childrenDeleted(t *testing.T) {
	site, key := s.readySite(t)
	c := site.C
	var dep appsv1.Deployment
	poll.Must(t, c.Get(t.Context(), key, &dep))
	artefact, err := configInUse(t, c, &dep)
	poll.Must(t, err)
	pods := podUIDs(t, c, &dep)
	if len(pods) == 0 {
		t.Fatal("no pods of the Deployment")
	}
	meta := metav1.ObjectMeta{Namespace: site.NS, Name: site.Name}
	for _, child := range []client.Object{
		&corev1.Service{ObjectMeta: meta},
		&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: site.NS, Name: site.Name + "-db-connection"}},
		artefact,
	} {
		recreated(t, c, child)
		s.ready(t, key)
		var now appsv1.Deployment
		poll.Must(t, c.Get(t.Context(), key, &now))
		if now.Generation != dep.Generation {
			t.Errorf("recreating %T %s rolled the Deployment: generation %d → %d", child, child.GetName(), dep.Generation, now.Generation)
		}
		if got := podUIDs(t, c, &now); !slices.Equal(got, pods) {
			t.Errorf("recreating %T %s replaced the pods: %v → %v", child, child.GetName(), pods, got)
		}
	}

	recreated(t, c, &appsv1.Deployment{ObjectMeta: meta})
	poll.Until(t, Wait, func() error {
		var now appsv1.Deployment
		if err := c.Get(t.Context(), key, &now); err != nil {
			return err
		}
		if now.Status.ObservedGeneration != now.Generation || now.Status.AvailableReplicas < *now.Spec.Replicas {
			return fmt.Errorf("recreated Deployment not available: %+v", now.Status)
		}
		return nil
	})
	s.ready(t, key)
}

// recreated deletes obj and waits until a new object of its name exists
// whose owned content (the Service's ports, the Secret's data, the
// ConfigMap's data) is what the deleted one held.
func recreated(t *testing.T, c client.Client, obj client.Object) {
	t.Helper()
	before := obj.DeepCopyObject().(client.Object)
	poll.Must(t, c.Get(t.Context(), client.ObjectKeyFromObject(obj), before))
	poll.Must(t, c.Delete(t.Context(), before.DeepCopyObject().(client.Object)))
	poll.Until(t, Wait, func() error {
		now := obj.DeepCopyObject().(client.Object)
		if err := c.Get(t.Context(), client.ObjectKeyFromObject(obj), now); err != nil {
			return err
		}
		if now.GetUID() == before.GetUID() {
			return fmt.Errorf("%T %s not deleted yet", obj, obj.GetName())
		}
		if diff := sameContent(before, now); diff != "" {
			return fmt.Errorf("%T %s recreated with other content: %s", obj, obj.GetName(), diff)
		}
		return nil
	})
}

func sameContent(before, now client.Object) string {
	switch b := before.(type) {
	case *corev1.Service:
		if n := now.(*corev1.Service); !slices.EqualFunc(b.Spec.Ports, n.Spec.Ports, func(x, y corev1.ServicePort) bool { return x == y }) {
			return fmt.Sprintf("ports %v, was %v", n.Spec.Ports, b.Spec.Ports)
		}
	case *corev1.Secret:
		if n := now.(*corev1.Secret); fmt.Sprint(n.Data) != fmt.Sprint(b.Data) {
			return "data differs"
		}
	case *corev1.ConfigMap:
		if n := now.(*corev1.ConfigMap); fmt.Sprint(n.Data) != fmt.Sprint(b.Data) {
			return "data differs"
		}
	}
	return ""
}

// configInUse is the config artefact (ConfigMap or Secret carrying the
// config-base label) that the Deployment's pod template mounts.
func configInUse(t *testing.T, c client.Client, d *appsv1.Deployment) (client.Object, error) {
	t.Helper()
	for _, v := range d.Spec.Template.Spec.Volumes {
		var obj client.Object
		switch {
		case v.ConfigMap != nil:
			obj = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: d.Namespace, Name: v.ConfigMap.Name}}
		case v.Secret != nil:
			obj = &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: d.Namespace, Name: v.Secret.SecretName}}
		default:
			continue
		}
		if err := c.Get(t.Context(), client.ObjectKeyFromObject(obj), obj); err != nil {
			continue
		}
		if _, ok := obj.GetLabels()[workload.ConfigBaseLabel]; ok {
			return obj, nil
		}
	}
	return nil, fmt.Errorf("the Deployment %s mounts no config artefact", d.Name)
}

// podUIDs are the UIDs of the Deployment's pods, sorted.
func podUIDs(t *testing.T, c client.Client, d *appsv1.Deployment) []types.UID {
	t.Helper()
	var pods corev1.PodList
	poll.Must(t, c.List(t.Context(), &pods, client.InNamespace(d.Namespace), client.MatchingLabels(d.Spec.Selector.MatchLabels)))
	var out []types.UID
	for _, p := range pods.Items {
		if p.DeletionTimestamp == nil {
			out = append(out, p.UID)
		}
	}
	slices.Sort(out)
	return out
}
