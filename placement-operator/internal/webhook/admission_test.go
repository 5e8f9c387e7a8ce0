package webhook_test

import (
	"os"
	"testing"

	ctrl "sigs.k8s.io/controller-runtime"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	placementv1 "github.com/c5c3/openstack-operators/placement-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/placement-operator/internal/catalog"
	"github.com/c5c3/openstack-operators/placement-operator/internal/fixture"
	"github.com/c5c3/openstack-operators/placement-operator/internal/webhook"
	"github.com/c5c3/openstack-operators/testsupport/admissiontest"
)

// One kube-apiserver + etcd for the whole package, with the CRD and both
// webhook configurations installed and a manager serving only the webhooks.
var suite *admissiontest.Suite

// kind runs the shared admission cases on Placements.
var kind = admissiontest.Kind[*placementv1.Placement]{
	Service: placementv1.ServiceName, GVK: placementv1.GroupVersion.WithKind("Placement"),
	New: func(name string) *placementv1.Placement { return fixture.Bare(admissiontest.Namespace, name) },
	Target: func(p *placementv1.Placement) admissiontest.Target {
		return admissiontest.Target{Spec: &p.Spec.ServiceSpec, UWSGI: func() *serviceapi.UWSGISpec { return uwsgiBlock(p) }}
	},
}

// uwsgiBlock is spec.apiServer.uwsgi, written empty when absent.
func uwsgiBlock(p *placementv1.Placement) *serviceapi.UWSGISpec {
	if p.Spec.APIServer == nil {
		p.Spec.APIServer = &placementv1.APIServerSpec{}
	}
	if p.Spec.APIServer.UWSGI == nil {
		p.Spec.APIServer.UWSGI = &serviceapi.UWSGISpec{}
	}
	return p.Spec.APIServer.UWSGI
}

// cat is what the 2025.2 placement catalog the fixture's release selects holds.
var cat = admissiontest.Catalog{Release: "2025.2", Section: "placement", Option: "max_allocation_candidates"}

func TestMain(m *testing.M) {
	os.Exit(admissiontest.Main(m, admissiontest.Options{
		AddToScheme: placementv1.AddToScheme,
		Register: func(mgr ctrl.Manager) error {
			cats, err := catalog.Load()
			if err != nil {
				return err
			}
			return ctrl.NewWebhookManagedBy(mgr, &placementv1.Placement{}).
				WithDefaulter(webhook.Defaulter{}).
				WithValidator(&webhook.Validator{Reader: mgr.GetAPIReader(), Catalogs: cats}).
				Complete()
		},
	}, func(s *admissiontest.Suite) { suite = s }))
}

func TestAdmitsAndDefaultsMinimal(t *testing.T) {
	got := kind.AdmitsAndDefaults(t, suite, webhook.Defaults.Resources)
	if got.Spec.APIServer != nil {
		t.Errorf("apiServer materialized: %+v", got.Spec.APIServer)
	}
}

// The cases the shared service spec brings to every service kind.
func TestSharedAdmission(t *testing.T) { kind.SharedAdmission(t, suite, cat, placementv1.Finalizer) }

// One invalid Placement per rule of placement-api.md §4.2; Placement has no
// rule beyond the shared spec's.
func TestRefusesEveryRule(t *testing.T) {
	kind.Refuses(t, suite, "refused", kind.ServiceRefusals(cat))
}

func TestUpdateRules(t *testing.T) { kind.Updates(t, suite, "update", kind.ServiceUpdates(cat)) }

// A manifest without a required field is refused as that field missing.
func TestRefusesMissingRequiredField(t *testing.T) {
	kind.RefusesMissing(t, suite, "missing", kind.ServiceMissing())
}
