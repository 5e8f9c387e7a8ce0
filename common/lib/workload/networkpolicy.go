package workload

import (
	"errors"
	"net/url"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

// NamespaceNameLabel is set by the API server on every namespace.
const NamespaceNameLabel = "kubernetes.io/metadata.name"

const (
	dnsPort          int32 = 53
	defaultCachePort int32 = 11211
)

// ErrNoIngressSources fails the render closed: an empty source list is a spec
// error, so nothing is created rather than a policy guessed at.
var ErrNoIngressSources = errors.New("networkPolicy.ingress must list at least one source")

// NetworkPolicyParams is everything the API NetworkPolicy is rendered from.
type NetworkPolicyParams struct {
	ID                Identity
	Port              int32
	Spec              serviceapi.NetworkPolicySpec
	GatewayNamespace  string // "" when no gateway is configured
	OperatorNamespace string // "" when unknown
	DatabasePort      int32
	KeystoneURL       string
	CacheServers      []string // brownfield host:port entries; empty means 11211
	ExtraEgressPorts  []int32  // service-specific TCP egress, before AdditionalEgress
}

// NetworkPolicy renders the API NetworkPolicy. Egress rules name ports only,
// because database, Keystone and cache endpoints may live outside the cluster.
func NetworkPolicy(p NetworkPolicyParams) (*networkingv1.NetworkPolicy, error) {
	if len(p.Spec.Ingress) == 0 {
		return nil, ErrNoIngressSources
	}

	peers := make([]networkingv1.NetworkPolicyPeer, 0, len(p.Spec.Ingress)+2)
	for _, src := range p.Spec.Ingress {
		// One peer with both selectors means namespace AND pod.
		peers = append(peers, networkingv1.NetworkPolicyPeer{
			NamespaceSelector: src.NamespaceSelector.DeepCopy(),
			PodSelector:       src.PodSelector.DeepCopy(),
		})
	}
	if p.GatewayNamespace != "" {
		peers = append(peers, namespacePeer(p.GatewayNamespace))
	}
	if p.OperatorNamespace != "" && p.OperatorNamespace != p.GatewayNamespace {
		peers = append(peers, namespacePeer(p.OperatorNamespace))
	}

	egress := []networkingv1.NetworkPolicyEgressRule{{
		Ports: []networkingv1.NetworkPolicyPort{port(corev1.ProtocolUDP, dnsPort), port(corev1.ProtocolTCP, dnsPort)},
	}}
	if p.DatabasePort > 0 {
		egress = append(egress, tcpRule(p.DatabasePort))
	}
	egress = append(egress, tcpRule(KeystonePort(p.KeystoneURL)))
	egress = append(egress, tcpRule(CachePorts(p.CacheServers)...))
	if len(p.ExtraEgressPorts) > 0 {
		egress = append(egress, tcpRule(p.ExtraEgressPorts...))
	}
	for i := range p.Spec.AdditionalEgress {
		egress = append(egress, *p.Spec.AdditionalEgress[i].DeepCopy())
	}

	return &networkingv1.NetworkPolicy{
		ObjectMeta: metav1.ObjectMeta{
			Name:      p.ID.Instance,
			Namespace: p.ID.Namespace,
			Labels:    p.ID.Labels(),
		},
		Spec: networkingv1.NetworkPolicySpec{
			PodSelector: metav1.LabelSelector{MatchLabels: p.ID.SelectorLabels()},
			PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress},
			Ingress: []networkingv1.NetworkPolicyIngressRule{{
				Ports: []networkingv1.NetworkPolicyPort{port(corev1.ProtocolTCP, p.Port)},
				From:  peers,
			}},
			Egress: egress,
		},
	}, nil
}

// KeystonePort is the URL's explicit port, else the scheme default. Anything
// unparseable falls back to 443, the port a real Keystone most likely uses.
func KeystonePort(raw string) int32 {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return 443
	}
	if n, err := strconv.ParseUint(u.Port(), 10, 16); err == nil && n > 0 {
		return int32(n)
	}
	if strings.EqualFold(u.Scheme, "http") {
		return 80
	}
	return 443
}

// CachePorts returns the distinct ports of host:port entries in first-seen
// order; an entry without a usable port counts as the memcached default.
func CachePorts(servers []string) []int32 {
	if len(servers) == 0 {
		return []int32{defaultCachePort}
	}
	var out []int32
	seen := map[int32]bool{}
	for _, s := range servers {
		p := cachePort(strings.TrimSpace(s))
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// cachePort reads the text after the last colon, which covers "[v6]:port" and
// "inet6:[v6]:port"; a bare "[v6]" leaves "x]" and falls back to the default.
func cachePort(s string) int32 {
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return defaultCachePort
	}
	n, err := strconv.ParseUint(s[i+1:], 10, 16)
	if err != nil || n == 0 {
		return defaultCachePort
	}
	return int32(n)
}

func namespacePeer(ns string) networkingv1.NetworkPolicyPeer {
	return networkingv1.NetworkPolicyPeer{
		NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{NamespaceNameLabel: ns}},
	}
}

func tcpRule(ports ...int32) networkingv1.NetworkPolicyEgressRule {
	r := networkingv1.NetworkPolicyEgressRule{}
	for _, p := range ports {
		r.Ports = append(r.Ports, port(corev1.ProtocolTCP, p))
	}
	return r
}

func port(proto corev1.Protocol, n int32) networkingv1.NetworkPolicyPort {
	return networkingv1.NetworkPolicyPort{Protocol: new(proto), Port: new(intstr.FromInt32(n))}
}
