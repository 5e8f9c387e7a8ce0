package conditions

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestSet(t *testing.T) {
	old := metav1.NewTime(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))
	tests := []struct {
		name           string
		status         metav1.ConditionStatus
		wantTimeKept   bool
		wantGeneration int64
	}{
		{name: "unchanged status keeps the transition time", status: metav1.ConditionTrue, wantTimeKept: true, wantGeneration: 7},
		{name: "flip moves the transition time", status: metav1.ConditionFalse, wantTimeKept: false, wantGeneration: 7},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conds := []metav1.Condition{{
				Type: TypeSecretsReady, Status: metav1.ConditionTrue, Reason: "Old", Message: "old",
				ObservedGeneration: 3, LastTransitionTime: old,
			}}
			Set(&conds, 7, TypeSecretsReady, tt.status, "New", "new message")
			if len(conds) != 1 {
				t.Fatalf("conditions = %+v, want one upserted", conds)
			}
			c := conds[0]
			if c.Status != tt.status || c.Reason != "New" || c.Message != "new message" {
				t.Errorf("condition = %+v, want status %s reason New", c, tt.status)
			}
			if c.ObservedGeneration != tt.wantGeneration {
				t.Errorf("observedGeneration = %d, want %d", c.ObservedGeneration, tt.wantGeneration)
			}
			if kept := c.LastTransitionTime.Equal(&old); kept != tt.wantTimeKept {
				t.Errorf("lastTransitionTime = %v (old %v), want kept=%v", c.LastTransitionTime, old, tt.wantTimeKept)
			}
			if c.LastTransitionTime.IsZero() {
				t.Error("lastTransitionTime is zero")
			}
		})
	}
}

func TestTrueFalseStampGeneration(t *testing.T) {
	var conds []metav1.Condition
	True(&conds, 2, TypeDatabaseReady, ReasonDatabaseSynced, "synced")
	False(&conds, 4, TypeHPAReady, ReasonHPANotRequired, "off")
	tests := []struct {
		condType   string
		wantStatus metav1.ConditionStatus
		wantReason string
		wantGen    int64
	}{
		{TypeDatabaseReady, metav1.ConditionTrue, ReasonDatabaseSynced, 2},
		{TypeHPAReady, metav1.ConditionFalse, ReasonHPANotRequired, 4},
	}
	for _, tt := range tests {
		c := meta.FindStatusCondition(conds, tt.condType)
		if c == nil || c.Status != tt.wantStatus || c.Reason != tt.wantReason || c.ObservedGeneration != tt.wantGen || c.LastTransitionTime.IsZero() {
			t.Errorf("%s = %+v, want %s/%s gen %d with a transition time", tt.condType, c, tt.wantStatus, tt.wantReason, tt.wantGen)
		}
	}
}

func TestAggregate(t *testing.T) {
	subs := []string{"A", "B", "C"}
	tests := []struct {
		name       string
		conds      map[string]metav1.ConditionStatus
		subTypes   []string
		wantStatus metav1.ConditionStatus
		wantReason string
		wantMsg    string
	}{
		{
			name:       "all True",
			conds:      map[string]metav1.ConditionStatus{"A": metav1.ConditionTrue, "B": metav1.ConditionTrue, "C": metav1.ConditionTrue},
			subTypes:   subs,
			wantStatus: metav1.ConditionTrue, wantReason: ReasonAllReady, wantMsg: "all sub-conditions are True",
		},
		{
			name:       "unlisted False does not count",
			conds:      map[string]metav1.ConditionStatus{"A": metav1.ConditionTrue, "B": metav1.ConditionTrue, "C": metav1.ConditionTrue, "X": metav1.ConditionFalse},
			subTypes:   subs,
			wantStatus: metav1.ConditionTrue, wantReason: ReasonAllReady, wantMsg: "all sub-conditions are True",
		},
		{
			name:       "one False",
			conds:      map[string]metav1.ConditionStatus{"A": metav1.ConditionTrue, "B": metav1.ConditionFalse, "C": metav1.ConditionTrue},
			subTypes:   subs,
			wantStatus: metav1.ConditionFalse, wantReason: ReasonNotAllReady, wantMsg: "not True: B",
		},
		{
			name:       "missing and Unknown named in list order",
			conds:      map[string]metav1.ConditionStatus{"B": metav1.ConditionTrue, "C": metav1.ConditionUnknown},
			subTypes:   subs,
			wantStatus: metav1.ConditionFalse, wantReason: ReasonNotAllReady, wantMsg: "not True: A, C",
		},
		{
			name:       "none set",
			subTypes:   subs,
			wantStatus: metav1.ConditionFalse, wantReason: ReasonNotAllReady, wantMsg: "not True: A, B, C",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var conds []metav1.Condition
			for _, typ := range []string{"A", "B", "C", "X"} {
				if st, ok := tt.conds[typ]; ok {
					Set(&conds, 1, typ, st, "R", "")
				}
			}
			Aggregate(&conds, 9, tt.subTypes)
			c := meta.FindStatusCondition(conds, TypeReady)
			if c == nil {
				t.Fatal("no Ready condition")
			}
			if c.Status != tt.wantStatus || c.Reason != tt.wantReason || c.Message != tt.wantMsg || c.ObservedGeneration != 9 {
				t.Errorf("Ready = %s/%s %q gen %d, want %s/%s %q gen 9", c.Status, c.Reason, c.Message, c.ObservedGeneration, tt.wantStatus, tt.wantReason, tt.wantMsg)
			}
		})
	}
}
