package attach

import (
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
)

// Skipped maps a child's name to why this pass left it out of the projection.
type Skipped map[string]string

// Names are the skipped children's names, sorted.
func (s Skipped) Names() []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Line is the message fragment of one skip; the parent's condition carries it.
func (s Skipped) Line(name string) string { return fmt.Sprintf("%s skipped: %s", name, s[name]) }

// Waiting is the message of a projection that is valid but incomplete (or,
// with rendered and pending nil, the skip part of an invalid one's message).
func Waiting(rendered, pending []string, skipped Skipped) string {
	var parts []string
	if len(rendered) > 0 {
		parts = append(parts, "projected: "+strings.Join(rendered, ", "))
	}
	if len(pending) > 0 {
		parts = append(parts, "waiting for credentials: "+strings.Join(pending, ", "))
	}
	for _, name := range skipped.Names() {
		parts = append(parts, skipped.Line(name))
	}
	return strings.Join(parts, "; ")
}

// Carry appends to msg, a transient wait that evaluates no skip, the skip
// lines of prev, the condition's previous message: a skip reported before
// the wait is still known as reported after it (Warn), not warned again.
func Carry(msg, prev string) string {
	for _, part := range strings.Split(prev, "; ") {
		if strings.Contains(part, " skipped: ") {
			msg += "; " + part
		}
	}
	return msg
}

// Warn emits reason (a Warning) on parent for each skip that is new: a skip
// whose line the previous message of the parent's condition (prevMessage)
// already carries was reported before. The child is the event's related
// object, so the events of two skipped children stay apart.
func Warn[P runtime.Object](rec events.EventRecorder, parent runtime.Object, prevMessage string, skipped Skipped,
	children map[string]P, reason, action, kind string) {
	for _, name := range skipped.Names() {
		line := skipped.Line(name)
		if strings.Contains(prevMessage, line) {
			continue
		}
		var related runtime.Object
		if c, ok := children[name]; ok {
			related = c
		}
		rec.Eventf(parent, related, corev1.EventTypeWarning, reason, action, "%s %s", kind, line)
	}
}
