package conditions

import (
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Set upserts a condition stamped with the object's generation. The transition
// time only moves when the status flips (meta.SetStatusCondition semantics).
func Set(conds *[]metav1.Condition, generation int64, condType string, status metav1.ConditionStatus, reason, message string) {
	meta.SetStatusCondition(conds, metav1.Condition{
		Type:               condType,
		Status:             status,
		Reason:             reason,
		Message:            message,
		ObservedGeneration: generation,
	})
}

// True upserts a True condition.
func True(conds *[]metav1.Condition, generation int64, condType, reason, message string) {
	Set(conds, generation, condType, metav1.ConditionTrue, reason, message)
}

// False upserts a False condition.
func False(conds *[]metav1.Condition, generation int64, condType, reason, message string) {
	Set(conds, generation, condType, metav1.ConditionFalse, reason, message)
}

// Aggregate sets Ready to True/AllReady when every listed sub-condition is
// True, else False/NotAllReady naming the first ones that are not.
func Aggregate(conds *[]metav1.Condition, generation int64, subTypes []string) {
	var pending []string
	for _, t := range subTypes {
		if !meta.IsStatusConditionTrue(*conds, t) {
			pending = append(pending, t)
		}
	}
	if len(pending) == 0 {
		True(conds, generation, TypeReady, ReasonAllReady, "all sub-conditions are True")
		return
	}
	False(conds, generation, TypeReady, ReasonNotAllReady, "not True: "+strings.Join(pending, ", "))
}
