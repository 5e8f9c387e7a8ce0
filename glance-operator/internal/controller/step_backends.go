package controller

import (
	"context"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/configartifact"
	"github.com/c5c3/openstack-operators/common/pipeline"
	"github.com/c5c3/openstack-operators/common/secrets"
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
	var ready []glancev1.GlanceBackend
	var pending []string
	for _, b := range attached {
		if meta.IsStatusConditionTrue(b.Status.Conditions, glancev1.ConditionCredentialsReady) {
			ready = append(ready, b)
		} else {
			pending = append(pending, b.Name)
		}
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
	r.warnSkipped(s, skipped, byName(attached))
	defaults := defaultsOf(rendered)
	if len(defaults) != 1 {
		msg := noDefaultMessage(defaults, len(attached))
		if len(skipped) > 0 {
			msg += "; " + waitingMessage(nil, nil, skipped)
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
		s.SetFalse(glancev1.ConditionBackendsReady, glancev1.ReasonWaitingForBackends, waitingMessage(names(rendered), pending, skipped))
		return pipeline.Continue(), nil
	}
	s.SetTrue(glancev1.ConditionBackendsReady, glancev1.ReasonAllBackendsProjected,
		fmt.Sprintf("%d backends projected (%s), default %s", len(rendered), strings.Join(names(rendered), ", "), defaults[0]))
	return pipeline.Continue(), nil
}

// attachedBackends lists the non-deleting backends naming g, sorted by name.
func (r *GlanceReconciler) attachedBackends(ctx context.Context, g *glancev1.Glance) ([]glancev1.GlanceBackend, error) {
	var list glancev1.GlanceBackendList
	if err := r.Client.List(ctx, &list, client.InNamespace(g.Namespace), client.MatchingFields{IndexGlanceRef: g.Name}); err != nil {
		return nil, fmt.Errorf("listing GlanceBackends of %s: %w", g.Name, err)
	}
	out := slices.DeleteFunc(list.Items, func(b glancev1.GlanceBackend) bool { return !b.DeletionTimestamp.IsZero() })
	slices.SortFunc(out, func(a, b glancev1.GlanceBackend) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// readCredentials reads each backend's S3 credentials on the children's
// cluster; a missing Secret or key skips that backend only.
func (r *GlanceReconciler) readCredentials(ctx context.Context, s *scope, ready []glancev1.GlanceBackend) ([]render.Backend, map[string]string, error) {
	skipped := map[string]string{}
	var out []render.Backend
	for _, b := range ready {
		if b.Spec.S3 == nil {
			skipped[b.Name] = "type S3 without an s3 block"
			continue
		}
		ref := b.Spec.S3.CredentialsSecretRef.Name
		sec, msg, err := secrets.Usable(ctx, s.Target.Reader, b.Namespace, ref, glancev1.S3AccessKeyID, glancev1.S3SecretAccessKey)
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

// warnSkipped emits GlanceBackendSkipped for each skipped backend when the
// skip is new: BackendsReady's previous message, valid projection or not,
// names the backends skipped then. The backend is the event's related
// object, so the events of two skipped backends stay apart.
func (r *GlanceReconciler) warnSkipped(s *scope, skipped map[string]string, backends map[string]*glancev1.GlanceBackend) {
	prev := meta.FindStatusCondition(s.glance.Status.Conditions, glancev1.ConditionBackendsReady)
	for _, name := range sortedKeys(skipped) {
		line := skipLine(name, skipped[name])
		if prev != nil && strings.Contains(prev.Message, line) {
			continue
		}
		r.Recorder.Eventf(s.glance, backends[name], corev1.EventTypeWarning, EventBackendSkipped, "Backends", "GlanceBackend %s", line)
	}
}

func byName(backends []glancev1.GlanceBackend) map[string]*glancev1.GlanceBackend {
	out := make(map[string]*glancev1.GlanceBackend, len(backends))
	for i := range backends {
		out[backends[i].Name] = &backends[i]
	}
	return out
}

func skipLine(name, why string) string { return fmt.Sprintf("%s skipped: %s", name, why) }

func waitingMessage(rendered, pending []string, skipped map[string]string) string {
	var parts []string
	if len(rendered) > 0 {
		parts = append(parts, "projected: "+strings.Join(rendered, ", "))
	}
	if len(pending) > 0 {
		parts = append(parts, "waiting for credentials: "+strings.Join(pending, ", "))
	}
	for _, name := range sortedKeys(skipped) {
		parts = append(parts, skipLine(name, skipped[name]))
	}
	return strings.Join(parts, "; ")
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

func sortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
