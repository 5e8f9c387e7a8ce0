package service

import (
	"slices"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func TestUncountedRunsFollowTheLastCounted(t *testing.T) {
	var runs []*batchv1.Job
	for _, uid := range []string{"a", "b", "c"} {
		runs = append(runs, &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: uid, UID: types.UID(uid)}})
	}
	for _, tc := range []struct {
		last string
		want []string
	}{
		{"", []string{"a", "b", "c"}}, // nothing counted yet: every run
		{"a", []string{"b", "c"}},     // two ended since the last pass
		{"c", nil},                    // the newest is counted
		{"gone", []string{"c"}},       // the last counted was pruned: the newest only
	} {
		var got []string
		for _, j := range uncounted(runs, tc.last) {
			got = append(got, j.Name)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("uncounted after %q = %v, want %v", tc.last, got, tc.want)
		}
	}
}
