package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestIdentityLabels(t *testing.T) {
	id := Identity{Service: "placement", Instance: "p1", Namespace: "ns", ManagedBy: "placement-operator"}
	tests := []struct {
		name string
		got  map[string]string
		want map[string]string
	}{
		{
			name: "labels",
			got:  id.Labels(),
			want: map[string]string{
				"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "p1",
				"app.kubernetes.io/managed-by": "placement-operator",
			},
		},
		{
			name: "selector",
			got:  id.SelectorLabels(),
			want: map[string]string{"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "p1"},
		},
		{
			name: "pod",
			got:  id.PodLabels(),
			want: map[string]string{
				"app.kubernetes.io/name": "placement", "app.kubernetes.io/instance": "p1",
				"app.kubernetes.io/managed-by": "placement-operator", "app.kubernetes.io/component": "api",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// Each call must return a fresh map so callers can extend it safely.
	id.PodLabels()["x"] = "y"
	if _, ok := id.Labels()["x"]; ok {
		t.Error("Labels shares state between calls")
	}
}
