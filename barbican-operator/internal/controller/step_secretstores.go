package controller

import (
	"context"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"sigs.k8s.io/controller-runtime/pkg/client"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/framework/attach"
	"github.com/c5c3/openstack-operators/common/framework/pipeline"
	"github.com/c5c3/openstack-operators/common/framework/secrets"
)

// Events of the SecretStores step.
const (
	// EventStoreSkipped warns that the default store cannot be rendered.
	EventStoreSkipped = "BarbicanSecretStoreSkipped"
	// EventStoreDetached warns that a store left the projection: material
	// written through it stops resolving.
	EventStoreDetached = "SecretStoreDetached"
)

// reconcileSecretStores aggregates the attached, credential-ready stores
// into the secret-store sections of barbican.conf. It never stops the
// pipeline: every waiting state returns a zero result and no error, so a
// first install proceeds to the steps that report what is missing, and a
// store's status flip re-enqueues through the watch. On an invalid
// projection nothing is rendered and Config keeps the last good one.
func (r *BarbicanReconciler) reconcileSecretStores(ctx context.Context, s *scope) (pipeline.Outcome, error) {
	b := s.barbican
	attached, err := r.attachedStores(ctx, b)
	if err != nil {
		return pipeline.Continue(), err
	}
	s.attached = attached
	ready, pending, stale := attach.Split(attached, barbicanv1.ConditionCredentialsReady)
	urls := storeURLs(ready)
	s.EgressPorts = render.OpenBaoPorts(union(urls, b.Status.ProjectedSecretStoreHosts))
	if len(stale) > 0 {
		s.SetFalse(barbicanv1.ConditionSecretStoresReady, barbicanv1.ReasonWaitingForSecretStores, attach.Carry(attach.StaleMessage("BarbicanSecretStore", stale), prevMessage(b)))
		return pipeline.Continue(), nil
	}
	defaults := defaultStores(ready)
	switch {
	case len(defaults) != 1:
		s.SetFalse(barbicanv1.ConditionSecretStoresReady, barbicanv1.ReasonNoDefaultSecretStore, noDefaultMessage(defaults, len(attached)))
		return pipeline.Continue(), nil
	case len(ready) > 1:
		s.SetFalse(barbicanv1.ConditionSecretStoresReady, barbicanv1.ReasonMultipleOpenBaoStores, fmt.Sprintf(
			"%d credential-ready OpenBao stores (%s): [vault_plugin] is process-global, so at most one OpenBao store is allowed; keeping the last projection",
			len(ready), strings.Join(attach.Names(ready), ", ")))
		return pipeline.Continue(), nil
	}
	read, err := r.readStores(ctx, s, ready, defaults[0])
	if err != nil {
		return pipeline.Continue(), err
	}
	if read.unchecked != "" {
		s.SetFalse(barbicanv1.ConditionSecretStoresReady, barbicanv1.ReasonWaitingForSecretStores, attach.Carry(read.unchecked+"; keeping the last projection", prevMessage(b)))
		return pipeline.Continue(), nil
	}
	skipped := read.skipped
	if len(skipped) == 0 {
		if _, rerr := render.StoreSections(read.stores); rerr != nil {
			skipped = attach.Skipped{defaults[0].Name: rerr.Error()}
		}
	}
	attach.Warn(r.Recorder, b, prevMessage(b), skipped, attach.ByName(attached), EventStoreSkipped, "SecretStores", "BarbicanSecretStore")
	if len(skipped) > 0 {
		s.SetFalse(barbicanv1.ConditionSecretStoresReady, barbicanv1.ReasonWaitingForSecretStores,
			attach.Waiting(nil, nil, skipped)+"; keeping the last projection")
		return pipeline.Continue(), nil
	}
	s.EgressPorts = render.OpenBaoPorts(urls)
	s.projection = &projection{stores: read.stores}
	s.store, s.storeHash = read.mount, read.digest
	names := attach.Names(ready)
	if len(pending) > 0 {
		s.SetFalse(barbicanv1.ConditionSecretStoresReady, barbicanv1.ReasonWaitingForSecretStores, attach.Waiting(names, pending, nil))
		return pipeline.Continue(), nil
	}
	s.SetTrue(barbicanv1.ConditionSecretStoresReady, barbicanv1.ReasonAllStoresProjected,
		fmt.Sprintf("%d stores projected (%s), default %s", len(names), strings.Join(names, ", "), defaults[0].Name))
	return pipeline.Continue(), nil
}

// record writes the valid projection to status, once its config is
// written (Config step), and warns for each store that left it.
func (r *BarbicanReconciler) record(s *scope, stores []render.Store) {
	b := s.barbican
	names := make([]string, 0, len(stores))
	hosts := make([]string, 0, len(stores))
	for _, st := range stores {
		names = append(names, st.Name)
		hosts = append(hosts, st.URL)
	}
	for _, old := range b.Status.ProjectedSecretStores {
		if !slices.Contains(names, old) {
			r.Recorder.Eventf(b, nil, corev1.EventTypeWarning, EventStoreDetached, "SecretStores",
				"BarbicanSecretStore %s left the projection: secrets stored through it no longer resolve (barbican looks each secret up in the store it was written to)", old)
		}
	}
	b.Status.ProjectedSecretStores = names
	b.Status.ProjectedSecretStoreHosts = union(hosts, nil)
}

// attachedStores lists the non-deleting stores naming b, sorted by name.
func (r *BarbicanReconciler) attachedStores(ctx context.Context, b *barbicanv1.Barbican) ([]barbicanv1.BarbicanSecretStore, error) {
	var list barbicanv1.BarbicanSecretStoreList
	if err := r.Client.List(ctx, &list, client.InNamespace(b.Namespace), client.MatchingFields{IndexBarbicanRef: b.Name}); err != nil {
		return nil, fmt.Errorf("listing BarbicanSecretStores of %s: %w", b.Name, err)
	}
	return attach.Live(list.Items), nil
}

// storesRead is what readStores found: the rendering input, the default
// store's mount and secret-ID digest, the stores skipped, and why the
// default store's pair must wait (unchecked) when it is not the pair the
// store validated.
type storesRead struct {
	stores    []render.Store
	mount     render.StoreMount
	digest    string
	skipped   attach.Skipped
	unchecked string
}

// readStores reads what the rendering needs on the children's cluster: the
// default store's role ID (and the digest of its secret ID, which reaches
// the pods by env only). A missing Secret or key skips the default store. A
// pair that differs from the one the store validated (status.credentialsHash,
// a rotation the store has not checked yet) is unchecked: it waits for the
// store's pass, which the same Secret event starts, with no Warning.
func (r *BarbicanReconciler) readStores(ctx context.Context, s *scope, ready []barbicanv1.BarbicanSecretStore, def *barbicanv1.BarbicanSecretStore) (storesRead, error) {
	out := storesRead{skipped: attach.Skipped{}}
	for i := range ready {
		st := &ready[i]
		rs := storeOf(st)
		if st.Name == def.Name {
			in := inputsOf(st)
			sec, msg, err := secrets.Usable(ctx, s.Target.Client, st.Namespace, in.credentials, barbicanv1.KeyRoleID, barbicanv1.KeySecretID)
			if err != nil {
				return out, fmt.Errorf("reading credentials of BarbicanSecretStore %s: %w", st.Name, err)
			}
			if sec == nil {
				out.skipped[st.Name] = msg
				continue
			}
			if !validated(st, sec.Data) {
				out.unchecked = fmt.Sprintf("BarbicanSecretStore %s has not yet checked the pair now in Secret %s", st.Name, in.credentials)
			}
			rs.RoleID = string(sec.Data[barbicanv1.KeyRoleID])
			out.mount = render.StoreMount{CredentialsSecret: in.credentials, CASecret: in.ca}
			out.digest = secrets.Digest(sec.Data[barbicanv1.KeySecretID])
		}
		out.stores = append(out.stores, rs)
	}
	return out, nil
}

// validatedBy says whether an attached store reading the credentials Secret
// name validated the pair it holds now.
func validatedBy(attached []barbicanv1.BarbicanSecretStore, name string, data map[string][]byte) bool {
	return slices.ContainsFunc(attached, func(st barbicanv1.BarbicanSecretStore) bool {
		return inputsOf(&st).credentials == name && validated(&st, data)
	})
}

// validated says whether st's controller validated the pair in data
// (status.credentialsHash).
func validated(st *barbicanv1.BarbicanSecretStore, data map[string][]byte) bool {
	return pairDigest(data[barbicanv1.KeyRoleID], data[barbicanv1.KeySecretID]) == st.Status.CredentialsHash
}

// storeInputs names the Secrets a store's rendering reads.
type storeInputs struct{ credentials, ca string }

// inputsOf: a managed store's credentials are the <store>-approle Secret it
// mints and its CA the instance's <instance>-tls-ca; a brownfield store names
// both (the CA is optional).
func inputsOf(st *barbicanv1.BarbicanSecretStore) storeInputs {
	o := st.Spec.OpenBao
	if st.Managed() {
		return storeInputs{credentials: ApproleSecretName(st.Name), ca: InstanceCASecretName(o.InstanceRef.Name)}
	}
	in := storeInputs{credentials: o.Server.CredentialsSecretRef.Name}
	if o.Server.CABundleSecretRef != nil {
		in.ca = o.Server.CABundleSecretRef.Name
	}
	return in
}

// storeOf is a store's rendering input without its role ID.
func storeOf(st *barbicanv1.BarbicanSecretStore) render.Store {
	o := st.Spec.OpenBao
	out := render.Store{Name: st.Name, Default: st.Spec.IsDefault, URL: StoreURL(st), ExtraOptions: st.Spec.ExtraOptions}
	if o != nil {
		out.KVMountpoint = o.EffectiveKVMountpoint()
		out.Namespace = o.Namespace
		out.HasCA = inputsOf(st).ca != ""
	}
	return out
}

// StoreURL is the server a store talks to: the managed instance's Service
// or the brownfield URL.
func StoreURL(st *barbicanv1.BarbicanSecretStore) string {
	o := st.Spec.OpenBao
	switch {
	case o == nil:
		return ""
	case o.InstanceRef != nil:
		return fmt.Sprintf("https://%s.%s.svc:8200", o.InstanceRef.Name, st.Namespace)
	case o.Server != nil:
		return o.Server.URL
	}
	return ""
}

// ApproleSecretName is the Secret a managed store mints: <store>-approle.
func ApproleSecretName(store string) string { return store + "-approle" }

// InstanceCASecretName is the CA Secret of a managed instance: <instance>-tls-ca.
func InstanceCASecretName(instance string) string { return instance + "-tls-ca" }

// prevMessage is SecretStoresReady's message of the previous pass: it names
// the stores skipped then.
func prevMessage(b *barbicanv1.Barbican) string {
	if c := meta.FindStatusCondition(b.Status.Conditions, barbicanv1.ConditionSecretStoresReady); c != nil {
		return c.Message
	}
	return ""
}

func noDefaultMessage(defaults []*barbicanv1.BarbicanSecretStore, attached int) string {
	if len(defaults) == 0 {
		return fmt.Sprintf("none of the %d attached BarbicanSecretStores is a credential-ready default (spec.isDefault); keeping the last projection", attached)
	}
	names := make([]string, 0, len(defaults))
	for _, d := range defaults {
		names = append(names, d.Name)
	}
	return fmt.Sprintf("%d credential-ready defaults (%s), exactly one is allowed; keeping the last projection", len(defaults), strings.Join(names, ", "))
}

func defaultStores(ready []barbicanv1.BarbicanSecretStore) []*barbicanv1.BarbicanSecretStore {
	var out []*barbicanv1.BarbicanSecretStore
	for i := range ready {
		if ready[i].Spec.IsDefault {
			out = append(out, &ready[i])
		}
	}
	return out
}

func storeURLs(stores []barbicanv1.BarbicanSecretStore) []string {
	out := make([]string, 0, len(stores))
	for i := range stores {
		if u := StoreURL(&stores[i]); u != "" {
			out = append(out, u)
		}
	}
	return out
}

// union is the sorted, distinct union of a and b.
func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}
