package suite

import (
	"fmt"
	"strings"
	"testing"
	"time"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
	"github.com/c5c3/openstack-operators/e2e/localsvc"
	"github.com/c5c3/openstack-operators/e2e/poll"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// The scenarios every operator's e2e suite runs the same way, on its own
// CR: what differs is named by the arguments.

// RotationRollsOnce rotates the service user's password at the source (ESO
// writes it into the <service>-keystone Secret) and checks that the
// Deployment of the site's CR rolls exactly once: one new generation, two
// ReplicaSets. ready waits until the CR is Ready again.
func RotationRollsOnce(t *testing.T, s *Site, wait time.Duration, ready func()) {
	t.Helper()
	key := client.ObjectKey{Namespace: s.NS, Name: s.Name}
	generation := func() int64 {
		var d appsv1.Deployment
		poll.Must(t, s.C.Get(s.Ctx, key, &d))
		return d.Generation
	}
	before := generation()
	rotated := map[string]string{"password": "ks-pw-2"}
	SetCredential(t, s.C, CredentialKey(s.NS, s.Service+"-keystone"), rotated)
	SyncExternalSecret(t, s.C, s.NS, s.Service+"-keystone", rotated)
	poll.Until(t, wait, func() error {
		if generation() == before {
			return fmt.Errorf("deployment not rolled yet")
		}
		return nil
	})
	ready()
	if g := generation(); g != before+1 {
		t.Errorf("deployment generation %d → %d, want one rollout", before, g)
	}
	var rs appsv1.ReplicaSetList
	poll.Must(t, s.C.List(s.Ctx, &rs, client.InNamespace(s.NS)))
	if len(rs.Items) != 2 {
		t.Errorf("%d ReplicaSets, want 2 (before and after the rotation)", len(rs.Items))
	}
}

// Deletion describes the deletion of a site's CR.
type Deletion struct {
	// CR is the CR to delete (on mgmt), Kind its kind and Series the
	// label of its metric series (`<label>="<name>"`).
	CR           client.Object
	Kind, Series string
	// Children are deleted with it besides the ones every operator
	// writes (MariaDB Database, User, Grant; Deployment, Service,
	// <cr>-db-connection Secret, <cr>-db-sync Job; config ConfigMaps).
	Children []client.Object
	// Metrics reads the operator's /metrics.
	Metrics func() (string, error)
}

// DeletionCleansUp deletes the CR and checks what every operator's
// deletion does: the finalizer deletes the MariaDB CRs (the real schema
// and account go with them, db is the server), garbage collection removes
// the children and every Secret carrying the CR's instance label, FinalizingDatabase and DatabaseFinalized are recorded, and
// the CR's metric series disappear.
func DeletionCleansUp(t *testing.T, s *Site, mgmt client.Client, db *localsvc.MariaDB, d Deletion, wait time.Duration) {
	t.Helper()
	series := fmt.Sprintf(`%s=%q`, d.Series, s.Name)
	poll.Until(t, wait, func() error {
		m, err := d.Metrics()
		if err != nil {
			return err
		}
		if !strings.Contains(m, series) {
			return fmt.Errorf("no metric series %s yet", series)
		}
		return nil
	})
	poll.Must(t, mgmt.Delete(s.Ctx, d.CR))
	meta := func(name string) metav1.ObjectMeta { return metav1.ObjectMeta{Namespace: s.NS, Name: name} }
	children := append([]client.Object{
		&mariadbv1alpha1.Database{ObjectMeta: meta(s.Name)},
		&mariadbv1alpha1.User{ObjectMeta: meta(s.Name)},
		&mariadbv1alpha1.Grant{ObjectMeta: meta(s.Name)},
		&appsv1.Deployment{ObjectMeta: meta(s.Name)},
		&corev1.Service{ObjectMeta: meta(s.Name)},
		&corev1.Secret{ObjectMeta: meta(s.Name + "-db-connection")},
		&batchv1.Job{ObjectMeta: meta(s.Name + "-db-sync")},
	}, d.Children...)
	poll.Until(t, wait, func() error {
		if err := mgmt.Get(s.Ctx, client.ObjectKeyFromObject(d.CR), d.CR); !apierrors.IsNotFound(err) {
			return fmt.Errorf("%s still there (%w)", d.Kind, err)
		}
		for _, obj := range children {
			if err := s.C.Get(s.Ctx, client.ObjectKeyFromObject(obj), obj); !apierrors.IsNotFound(err) {
				return fmt.Errorf("%T %s still exists (%w)", obj, obj.GetName(), err)
			}
		}
		var cms corev1.ConfigMapList
		poll.Must(t, s.C.List(s.Ctx, &cms, client.InNamespace(s.NS), client.HasLabels{"operators.c5c3.io/config-base"}))
		if len(cms.Items) > 0 {
			return fmt.Errorf("%d config ConfigMaps left", len(cms.Items))
		}
		var secrets corev1.SecretList
		poll.Must(t, s.C.List(s.Ctx, &secrets, client.InNamespace(s.NS), client.MatchingLabels{"app.kubernetes.io/instance": s.Name}))
		if len(secrets.Items) > 0 {
			return fmt.Errorf("%d Secrets of the deleted %s left, e.g. %s", len(secrets.Items), d.Kind, secrets.Items[0].Name)
		}
		left, err := db.Query("SELECT (SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = '" + s.Schema +
			"') + (SELECT COUNT(*) FROM mysql.user WHERE user = '" + s.DBUser + "')")
		if err != nil {
			return err
		}
		if left != "0" {
			return fmt.Errorf("schema %s or account %s still on the server", s.Schema, s.DBUser)
		}
		return nil
	})
	events := Events(t, mgmt, s.NS, d.Kind, s.Name)
	for _, reason := range []string{"FinalizingDatabase", "DatabaseFinalized"} {
		if events[reason] == 0 {
			t.Errorf("no %s event; have %v", reason, events)
		}
	}
	m, err := d.Metrics()
	poll.Must(t, err)
	if strings.Contains(m, series) {
		t.Errorf("metric series of the deleted %s remain", d.Kind)
	}
}

// HPAAndNetworkPolicy sets spec.autoscaling (2 to 4 replicas) and
// spec.networkPolicy (ingress from the namespace "openstack") through set,
// checks that the HPA and the NetworkPolicy follow and report Ready, hands
// the policy to checkPolicy for the operator's own rules, then unsets both
// and checks that they go (NotRequired). condition waits for a condition
// of the CR with status True and reason.
func HPAAndNetworkPolicy(t *testing.T, s *Site, wait time.Duration, set func(*serviceapi.AutoscalingSpec, *serviceapi.NetworkPolicySpec),
	condition func(typ, reason string), checkPolicy func(*networkingv1.NetworkPolicy)) {
	t.Helper()
	set(&serviceapi.AutoscalingSpec{MinReplicas: ptr.To(int32(2)), MaxReplicas: 4, TargetCPUUtilization: ptr.To(int32(70))},
		&serviceapi.NetworkPolicySpec{Ingress: []serviceapi.NetworkPolicyIngressSource{
			{NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": "openstack"}}},
		}})
	condition(conditions.TypeHPAReady, "HPAReady")
	condition(conditions.TypeNetworkPolicyReady, "NetworkPolicyReady")
	hpa := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name}}
	np := &networkingv1.NetworkPolicy{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name}}
	if err := s.C.Get(s.Ctx, client.ObjectKeyFromObject(hpa), hpa); err != nil || hpa.Spec.MaxReplicas != 4 {
		t.Errorf("HPA missing or wrong (%v): %+v", err, hpa.Spec)
	}
	if err := s.C.Get(s.Ctx, client.ObjectKeyFromObject(np), np); err != nil || len(np.Spec.Ingress) == 0 {
		t.Errorf("NetworkPolicy missing or without ingress (%v): %+v", err, np.Spec)
	} else {
		checkPolicy(np)
	}

	set(nil, nil)
	condition(conditions.TypeHPAReady, "HPANotRequired")
	condition(conditions.TypeNetworkPolicyReady, "NetworkPolicyNotRequired")
	poll.Until(t, wait, func() error {
		for _, obj := range []client.Object{hpa, np} {
			if err := s.C.Get(s.Ctx, client.ObjectKeyFromObject(obj), obj); !apierrors.IsNotFound(err) {
				return fmt.Errorf("%T still there (%w)", obj, err)
			}
		}
		return nil
	})
}

// HTTPRoute walks a CR that has spec.gateway with hostname through the
// Gateway API's arrival: without the CRDs the route is reported
// GatewayAPINotInstalled; once they are installed and the operator
// restarted, the HTTPRoute exists with the hostname and waits for its
// parent (HTTPRouteNotAccepted), follows the parent's Accepted (reported
// here as a Gateway controller would) to HTTPRouteAccepted and ready();
// unset (clear) it reports HTTPRouteNotRequired and the route goes.
// condition waits for a condition of the CR.
func HTTPRoute(t *testing.T, s *Site, env *Env, hostname string, wait time.Duration, clear func(),
	condition func(typ string, status metav1.ConditionStatus, reason string), ready func()) {
	t.Helper()
	condition(conditions.TypeHTTPRouteReady, metav1.ConditionFalse, "GatewayAPINotInstalled")
	poll.Must(t, InstallCRDs(env.Mgmt, true))
	poll.Must(t, env.Op.Restart())
	condition(conditions.TypeHTTPRouteReady, metav1.ConditionFalse, "HTTPRouteNotAccepted")
	route := &gatewayv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: s.NS, Name: s.Name}}
	if err := s.C.Get(s.Ctx, client.ObjectKeyFromObject(route), route); err != nil ||
		len(route.Spec.Hostnames) != 1 || string(route.Spec.Hostnames[0]) != hostname {
		t.Fatalf("HTTPRoute missing or wrong (%v): %+v", err, route.Spec)
	}
	poll.Must(t, testenv.RouteAccepted(s.Ctx, s.C, client.ObjectKeyFromObject(route), true))
	condition(conditions.TypeHTTPRouteReady, metav1.ConditionTrue, "HTTPRouteAccepted")
	ready()

	clear()
	condition(conditions.TypeHTTPRouteReady, metav1.ConditionTrue, "HTTPRouteNotRequired")
	poll.Until(t, wait, func() error {
		if err := s.C.Get(s.Ctx, client.ObjectKeyFromObject(route), route); !apierrors.IsNotFound(err) {
			return fmt.Errorf("HTTPRoute still there (%w)", err)
		}
		return nil
	})
}

// EgressTo tells whether a rule of np's egress allows TCP port.
func EgressTo(np *networkingv1.NetworkPolicy, port int32) bool {
	for _, rule := range np.Spec.Egress {
		for _, p := range rule.Ports {
			if p.Port != nil && p.Port.IntVal == port && (p.Protocol == nil || *p.Protocol == corev1.ProtocolTCP) {
				return true
			}
		}
	}
	return false
}
