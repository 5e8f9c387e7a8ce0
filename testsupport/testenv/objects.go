package testenv

import (
	"context"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// SetSecret replaces the data of the Secret ns/name.
func (s *Suite) SetSecret(t *testing.T, ns, name string, data map[string]string) {
	t.Helper()
	s.Eventually(t, "update Secret "+name, func() error {
		var sec corev1.Secret
		if err := s.Client.Get(context.Background(), client.ObjectKey{Namespace: ns, Name: name}, &sec); err != nil {
			return err
		}
		sec.Data, sec.StringData = nil, data
		return s.Client.Update(context.Background(), &sec)
	})
}

// Artefacts lists the names, sorted, of the objects in ns (list: a
// ConfigMapList or SecretList) that carry labels: e.g. every generation of
// a content-addressed config artefact by its base label.
func (s *Suite) Artefacts(t *testing.T, ns string, list client.ObjectList, labels client.MatchingLabels) []string {
	t.Helper()
	Must(t, s.Client.List(context.Background(), list, client.InNamespace(ns), labels))
	var out []string
	Must(t, meta.EachListItem(list, func(o runtime.Object) error {
		out = append(out, o.(client.Object).GetName())
		return nil
	}))
	slices.Sort(out)
	return out
}
