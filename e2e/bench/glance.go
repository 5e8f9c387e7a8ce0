package bench

import (
	"context"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/managerconfig"
	glance "github.com/c5c3/openstack-operators/glance-operator"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

var glanceService = service{name: "glance", release: "2025.2"}

// Each Glance stores in two S3 backends (one default) sharing one
// credentials Secret; nothing talks to S3 (glance-api does not run).
var glanceBackends = []string{"images", "archive"}

const glanceS3Secret = "glance-s3"

func init() { Operators["glance"] = glanceOperator() }

func glanceOperator() *Operator {
	return glanceService.profile(&Operator{
		GVK:           glancev1.GroupVersion.WithKind("Glance"),
		MetricsPrefix: glance.Operator.MetricsPrefix(),
		NewScheme:     func() *runtime.Scheme { return managerconfig.NewScheme(glancev1.AddToScheme) },
		Inputs:        glanceInputs,
		NewCR:         newGlance,
		Kinds: kinds(glancev1.GroupVersion.WithKind("Glance"), glancev1.GroupVersion.WithKind("GlanceBackend"),
			batchv1.SchemeGroupVersion.WithKind("CronJob")),
	}, glance.Operator.NewManager)
}

// glanceInputs are the shared inputs, the S3 credentials and the backends
// of the Glance the namespace will hold (the harness names each CR after
// its operator).
func glanceInputs(ctx context.Context, c client.Client, ns string) error {
	if err := glanceService.inputs(ctx, c, ns); err != nil {
		return err
	}
	s3 := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: glanceS3Secret},
		StringData: map[string]string{"access-key-id": "bench", "secret-access-key": "bench-secret"}}
	if err := createIfMissing(ctx, c, s3); err != nil {
		return err
	}
	for i, name := range glanceBackends {
		b := &glancev1.GlanceBackend{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
			Spec: glancev1.GlanceBackendSpec{
				GlanceRef: glancev1.GlanceRef{Name: glanceService.name}, Type: glancev1.BackendS3, IsDefault: i == 0,
				S3: &glancev1.S3Spec{Host: "http://s3." + ns + ".svc:7480", Bucket: name,
					CredentialsSecretRef: glancev1.CredentialsSecretRef{Name: glanceS3Secret}},
			},
		}
		glance.DefaultBackend(b)
		if err := createIfMissing(ctx, c, b); err != nil {
			return err
		}
	}
	return nil
}

// newGlance is a minimal Glance with the defaults of the mutating webhook.
func newGlance(ns, name string) client.Object {
	g := &glancev1.Glance{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       glancev1.GlanceSpec{ServiceSpec: glanceService.spec(ns)},
	}
	glance.Default(g)
	return g
}
