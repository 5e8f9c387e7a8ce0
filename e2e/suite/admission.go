package suite

import (
	"strings"
	"testing"

	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Refused creates obj through c and checks that the operator's admission
// webhook refused it with a message holding each of want, and that nothing
// was stored.
func Refused(t *testing.T, c client.Client, obj client.Object, want ...string) {
	t.Helper()
	err := c.Create(t.Context(), obj)
	if err == nil {
		t.Errorf("%T %s admitted", obj, obj.GetName())
		return
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%T %s refused with %q, which lacks %q", obj, obj.GetName(), err, w)
		}
	}
	if !strings.Contains(err.Error(), "admission webhook") {
		t.Errorf("%T %s refused by %q, not by the webhook", obj, obj.GetName(), err)
	}
	if err := c.Get(t.Context(), client.ObjectKeyFromObject(obj), obj); err == nil {
		t.Errorf("%T %s stored after the refusal", obj, obj.GetName())
	}
}
