package controller

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/attach"
	"github.com/c5c3/openstack-operators/common/framework/configartifact"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/secrets"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// EventBackendSkipped warns that one backend is left out of the projection.
const EventBackendSkipped = "GlanceBackendSkipped"

// reconcileBackends projects the attached, credential-ready backends into
// the content-addressed backends Secret. It never stops the pipeline: a
// first install proceeds, and a backend's status flip re-enqueues through
// the watch. Zero or several credential-ready defaults make the projection
// invalid: nothing is rendered and Config keeps the last good one.
func (r *GlanceReconciler) reconcileBackends(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	attached, err := r.attachedBackends(ctx, s.glance)
	if err != nil {
		return pipeline.Continue(), err
	}
	s.EgressPorts = render.S3EgressPorts(s3Hosts(attached))
	s.unchecked = unchecked(attached)
	ready, pending, stale := attach.Split(attached, glancev1.ConditionCredentialsReady)
	if len(stale) > 0 {
		s.SetFalse(glancev1.ConditionBackendsReady, glancev1.ReasonWaitingForBackends, attach.Carry(attach.StaleMessage("GlanceBackend", stale), prevMessage(s.glance)))
		return pipeline.Continue(), nil
	}
	rendered, skipped, err := r.readCredentials(ctx, s, ready)
	if err != nil {
		return pipeline.Continue(), err
	}
	conf, renderSkips, err := render.BackendsConf(rendered)
	if err != nil {
		return pipeline.Continue(), err
	}
	for name, why := range renderSkips {
		skipped[name] = why
	}
	rendered = slices.DeleteFunc(rendered, func(b render.Backend) bool { _, ok := skipped[b.Name]; return ok })
	attach.Warn(r.Recorder, s.glance, prevMessage(s.glance), skipped, attach.ByName(attached), EventBackendSkipped, "Backends", "GlanceBackend")
	defaults := defaultsOf(rendered)
	if len(defaults) != 1 {
		msg := noDefaultMessage(defaults, len(attached))
		if len(skipped) > 0 {
			msg += "; " + attach.Waiting(nil, nil, skipped)
		}
		s.SetFalse(glancev1.ConditionBackendsReady, glancev1.ReasonNoDefaultBackend, msg)
		return pipeline.Continue(), nil
	}
	secret := configartifact.BuildSecret(s.glance.Namespace, render.BackendsBase(s.glance), s.ID.Labels(), map[string]string{render.KeyBackendsConf: conf})
	if err := configartifact.EnsureSecret(ctx, s.Target.Client, s.Target.Reader, s.Owner, secret); err != nil {
		return pipeline.Continue(), err
	}
	if err := configartifact.PruneSecrets(ctx, s.Target.Client, s.Owner, s.glance.Namespace, render.BackendsBase(s.glance), secret.Name); err != nil {
		return pipeline.Continue(), err
	}
	s.backendsSecret = secret.Name
	s.projection = &projection{enabled: names(rendered), defaultBackend: defaults[0]}
	if len(pending) > 0 || len(skipped) > 0 {
		s.SetFalse(glancev1.ConditionBackendsReady, glancev1.ReasonWaitingForBackends, attach.Waiting(names(rendered), pending, skipped))
		return pipeline.Continue(), nil
	}
	s.SetTrue(glancev1.ConditionBackendsReady, glancev1.ReasonAllBackendsProjected,
		fmt.Sprintf("%d backends projected (%s), default %s", len(rendered), strings.Join(names(rendered), ", "), defaults[0]))
	return pipeline.Continue(), nil
}

// unchecked names the backends whose controller has not yet judged their
// credentials for their current spec with their Glance there: no
// CredentialsReady, one of an older generation, Unknown, or the verdict
// given while the Glance did not exist (WaitingForParent). A verdict either
// way counts as checked: a backend whose Secret is missing is not waited
// for.
func unchecked(backends []glancev1.GlanceBackend) []string {
	var out []string
	for _, b := range backends {
		c := meta.FindStatusCondition(b.Status.Conditions, glancev1.ConditionCredentialsReady)
		if c == nil || c.ObservedGeneration != b.Generation || c.Status == metav1.ConditionUnknown || c.Reason == glancev1.ReasonWaitingForParent {
			out = append(out, b.Name)
		}
	}
	return out
}

// attachedBackends lists the non-deleting backends naming g, sorted by name.
func (r *GlanceReconciler) attachedBackends(ctx context.Context, g *glancev1.Glance) ([]glancev1.GlanceBackend, error) {
	var list glancev1.GlanceBackendList
	if err := r.Client.List(ctx, &list, client.InNamespace(g.Namespace), client.MatchingFields{IndexGlanceRef: g.Name}); err != nil {
		return nil, fmt.Errorf("listing GlanceBackends of %s: %w", g.Name, err)
	}
	return attach.Live(list.Items), nil
}

// readCredentials reads each backend's S3 credentials on the children's
// cluster; a missing Secret or key skips that backend only.
func (r *GlanceReconciler) readCredentials(ctx context.Context, s *scope, ready []glancev1.GlanceBackend) ([]render.Backend, attach.Skipped, error) {
	skipped := attach.Skipped{}
	var out []render.Backend
	for _, b := range ready {
		if b.Spec.S3 == nil {
			skipped[b.Name] = "type S3 without an s3 block"
			continue
		}
		ref := b.Spec.S3.CredentialsSecretRef.Name
		sec, msg, err := secrets.Usable(ctx, s.Target.Client, b.Namespace, ref, glancev1.S3AccessKeyID, glancev1.S3SecretAccessKey)
		if err != nil {
			return nil, nil, fmt.Errorf("reading credentials of GlanceBackend %s: %w", b.Name, err)
		}
		if sec == nil {
			skipped[b.Name] = msg
			continue
		}
		out = append(out, render.Backend{
			Name: b.Name, Default: b.Spec.IsDefault, S3: *b.Spec.S3, ExtraOptions: b.Spec.ExtraOptions,
			AccessKeyID: string(sec.Data[glancev1.S3AccessKeyID]), SecretAccessKey: string(sec.Data[glancev1.S3SecretAccessKey]),
		})
	}
	return out, skipped, nil
}

// prevMessage is BackendsReady's message of the previous pass, valid
// projection or not: it names the backends skipped then.
func prevMessage(g *glancev1.Glance) string {
	if c := meta.FindStatusCondition(g.Status.Conditions, glancev1.ConditionBackendsReady); c != nil {
		return c.Message
	}
	return ""
}

func noDefaultMessage(defaults []string, attached int) string {
	if len(defaults) == 0 {
		return fmt.Sprintf("none of the %d attached GlanceBackends is a credential-ready default (spec.isDefault) that could be rendered; keeping the last projection", attached)
	}
	return fmt.Sprintf("%d credential-ready defaults (%s), exactly one is allowed; keeping the last projection", len(defaults), strings.Join(defaults, ", "))
}

func defaultsOf(backends []render.Backend) []string {
	var out []string
	for _, b := range backends {
		if b.Default {
			out = append(out, b.Name)
		}
	}
	return out
}

func names(backends []render.Backend) []string {
	out := make([]string, 0, len(backends))
	for _, b := range backends {
		out = append(out, b.Name)
	}
	return out
}

func s3Hosts(backends []glancev1.GlanceBackend) []string {
	var out []string
	for _, b := range backends {
		if b.Spec.S3 != nil {
			out = append(out, b.Spec.S3.Host)
		}
	}
	return out
}
