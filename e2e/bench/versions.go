package bench

import (
	"context"
	"fmt"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Versions maps "Kind namespace/name" to resourceVersion for every object
// of the operator's kinds in the CR namespaces, the unrelated Secret aside.
type Versions map[string]string

func (s *scenario) versions(ctx context.Context) (Versions, error) {
	out := Versions{}
	for _, gvk := range s.op.Kinds {
		list := &metav1.PartialObjectMetadataList{}
		list.SetGroupVersionKind(gvk.GroupVersion().WithKind(gvk.Kind + "List"))
		if err := s.client.List(ctx, list); err != nil {
			return nil, fmt.Errorf("listing %s: %w", gvk.Kind, err)
		}
		for _, o := range list.Items {
			if !strings.HasPrefix(o.Namespace, namespacePrefix) || (gvk.Kind == "Secret" && o.Name == unrelatedSecret) {
				continue
			}
			out[gvk.Kind+" "+o.Namespace+"/"+o.Name] = o.ResourceVersion
		}
	}
	return out, nil
}

// Changes lists the objects created, deleted or written between two
// snapshots, sorted.
func (v Versions) Changes(after Versions) []string {
	var out []string
	for k, rv := range after {
		switch old, ok := v[k]; {
		case !ok:
			out = append(out, "created "+k)
		case old != rv:
			out = append(out, "written "+k)
		}
	}
	for k := range v {
		if _, ok := after[k]; !ok {
			out = append(out, "deleted "+k)
		}
	}
	sort.Strings(out)
	return out
}
