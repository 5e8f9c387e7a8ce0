package testenv

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestProbeURLs(t *testing.T) {
	var p ProbeURLs
	cr := &metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a"}}
	if got := p.URL(cr, "in-cluster"); got != ClosedURL {
		t.Errorf("unregistered: %q, want %q", got, ClosedURL)
	}
	p.Set("ns", "a", "http://127.0.0.1:9/")
	if got := p.URL(cr, "in-cluster"); got != "http://127.0.0.1:9/" {
		t.Errorf("registered: %q", got)
	}
	if got := p.URL(&metav1.PartialObjectMetadata{ObjectMeta: metav1.ObjectMeta{Namespace: "other", Name: "a"}}, ""); got != ClosedURL {
		t.Errorf("another namespace: %q", got)
	}
	p.Set("ns", "a", "")
	if got := p.URL(cr, ""); got != ClosedURL {
		t.Errorf("removed: %q", got)
	}
}
