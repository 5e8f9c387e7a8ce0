package webhook

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrladmission "sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/c5c3/openstack-operators/common/framework/admit"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// The GlanceBackend webhook lists the backends of the namespace to refuse a
// second default for one Glance.
// +kubebuilder:webhook:path=/validate-glance-openstack-c5c3-io-v1alpha1-glancebackend,mutating=false,failurePolicy=fail,sideEffects=None,groups=glance.openstack.c5c3.io,resources=glancebackends,verbs=create;update,versions=v1alpha1,name=vglancebackend.openstack.c5c3.io,admissionReviewVersions=v1
// +kubebuilder:rbac:groups=glance.openstack.c5c3.io,resources=glancebackends,verbs=list

// BackendValidator checks GlanceBackends.
type BackendValidator struct {
	// Reader lists sibling backends, only when isDefault is set. Use the API
	// reader, not the cache: a sibling created a moment earlier (two defaults
	// in one kubectl apply) may not be cached yet.
	Reader client.Reader
}

// Hook is the validator as controller-runtime registers it.
func (v *BackendValidator) Hook() admit.Validator[*glancev1.GlanceBackend] { return v.Validate }

// Validate checks b; old is nil on create. A failed sibling LIST fails the
// request rather than refusing the object.
func (v *BackendValidator) Validate(ctx context.Context, b, _ *glancev1.GlanceBackend) (ctrladmission.Warnings, error) {
	errs := BackendSpec(b)
	defaults, err := v.defaultSiblings(ctx, b)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	if len(defaults) > 0 {
		errs = append(errs, field.Forbidden(field.NewPath("spec", "isDefault"), fmt.Sprintf(
			"Glance %s already has the default backend %s; unset its isDefault first",
			strconv.QuoteToASCII(b.Spec.GlanceRef.Name), strings.Join(defaults, ", "))))
	}
	return admit.Answer(BackendKind, b.Name, errs, nil)
}

// defaultSiblings are the names of the other live default backends of b's Glance.
func (v *BackendValidator) defaultSiblings(ctx context.Context, b *glancev1.GlanceBackend) ([]string, error) {
	if !b.Spec.IsDefault {
		return nil, nil
	}
	var list glancev1.GlanceBackendList
	if err := v.Reader.List(ctx, &list, client.InNamespace(b.Namespace)); err != nil {
		return nil, fmt.Errorf("listing GlanceBackends in %s: %w", b.Namespace, err)
	}
	var out []string
	for _, o := range list.Items {
		if o.Name != b.Name && o.DeletionTimestamp == nil && o.Spec.IsDefault && o.Spec.GlanceRef.Name == b.Spec.GlanceRef.Name {
			out = append(out, o.Name)
		}
	}
	slices.Sort(out)
	return out, nil
}

// optionName is what glance_store reads as an option name.
var optionName = regexp.MustCompile(`^[A-Za-z0-9_]+$`)

// typedKeys are the keys the typed S3 fields render: StoreOptions of a
// backend with every typed field set and no extraOptions.
var typedKeys = slices.Collect(maps.Keys(render.StoreOptions(render.Backend{S3: glancev1.S3Spec{
	Region: "r", CreateBucketOnPut: true, LargeObjectSize: new(resource.MustParse("1Mi")), LargeObjectChunkSize: new(resource.MustParse("1Mi")),
}})))

// BackendSpec runs every backend rule that needs no lookup.
func BackendSpec(b *glancev1.GlanceBackend) field.ErrorList {
	var errs field.ErrorList
	if render.ReservedBackendName(b.Name) {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), b.Name,
			"is the store id and names a section glance-api.conf or glance itself owns (default, database, keystone_authtoken, "+
				"glance_store, paste_deploy, oslo_policy, os_glance_*); choose another name"))
	}
	p := field.NewPath("spec", "extraOptions")
	for _, k := range slices.Sorted(maps.Keys(b.Spec.ExtraOptions)) {
		kp := p.Key(k)
		switch {
		case !optionName.MatchString(k):
			errs = append(errs, field.Invalid(kp, k, "key must match ^[A-Za-z0-9_]+$"))
		case slices.Contains(typedKeys, k):
			errs = append(errs, field.Forbidden(kp, "is rendered from the typed spec.s3 fields; set it there"))
		case k == "store_description":
			errs = append(errs, field.Forbidden(kp, "is reserved and cannot be set through extraOptions"))
		}
		if strings.ContainsAny(b.Spec.ExtraOptions[k], "\r\n") {
			errs = append(errs, field.Invalid(kp, field.OmitValueType{}, "value must not contain CR or LF"))
		}
	}
	if s3 := b.Spec.S3; s3 != nil {
		// Rendered in whole MiB: a smaller value would render 0 or round up.
		sp := field.NewPath("spec", "s3")
		errs = append(errs, atLeast1Mi(sp.Child("largeObjectSize"), s3.LargeObjectSize)...)
		errs = append(errs, atLeast1Mi(sp.Child("largeObjectChunkSize"), s3.LargeObjectChunkSize)...)
	}
	return errs
}
