package probe

import (
	"net"
	"net/url"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// URLAnnotation names, on a CR, a loopback URL its health probe goes to
// instead of the in-cluster Service. Operators honour it only when started
// with --probe-url-annotation: for an operator running outside the cluster
// next to an API process started on the same machine (make run, the e2e
// suites). Anything but an http(s) URL on a loopback address is ignored.
const URLAnnotation = "operators.c5c3.io/probe-url"

// OverrideURL returns the CR's loopback probe URL when it has a valid one,
// else fallback.
func OverrideURL(obj metav1.Object, fallback string) string {
	v := obj.GetAnnotations()[URLAnnotation]
	if v == "" || !loopbackURL(v) {
		return fallback
	}
	return v
}

func loopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.User != nil {
		return false
	}
	host := u.Hostname()
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
