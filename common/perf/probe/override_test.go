package probe

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestOverrideURL(t *testing.T) {
	const fallback = "http://placement.ns.svc.cluster.local:8778/"
	for value, want := range map[string]string{
		"":                          fallback,
		"http://127.0.0.1:4321/":    "http://127.0.0.1:4321/",
		"https://localhost:8778/":   "https://localhost:8778/",
		"http://[::1]:80/":          "http://[::1]:80/",
		"http://10.0.0.1:8778/":     fallback, // not loopback: never probed on a CR's say-so
		"http://example.org/":       fallback,
		"file:///etc/passwd":        fallback,
		"http://user:pw@127.0.0.1/": fallback,
		"://bad":                    fallback,
		"http://127.0.0.1.nip.io/":  fallback,
	} {
		obj := &metav1.ObjectMeta{Annotations: map[string]string{URLAnnotation: value}}
		if got := OverrideURL(obj, fallback); got != want {
			t.Errorf("OverrideURL(%q) = %q, want %q", value, got, want)
		}
	}
	if got := OverrideURL(&metav1.ObjectMeta{}, fallback); got != fallback {
		t.Errorf("no annotation: %q, want the fallback", got)
	}
}
