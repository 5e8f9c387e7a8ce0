package workload

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

func npPort(proto corev1.Protocol, n int32) networkingv1.NetworkPolicyPort {
	return networkingv1.NetworkPolicyPort{Protocol: &proto, Port: new(intstr.FromInt32(n))}
}

func nsSel(ns string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/metadata.name": ns}}
}

func TestNetworkPolicyEmptyIngress(t *testing.T) {
	for _, ing := range [][]serviceapi.NetworkPolicyIngressSource{nil, {}} {
		np, err := NetworkPolicy(NetworkPolicyParams{ID: testID, Port: 8778, Spec: serviceapi.NetworkPolicySpec{Ingress: ing}})
		if !errors.Is(err, ErrNoIngressSources) || np != nil {
			t.Errorf("ingress %v: got (%v, %v), want (nil, ErrNoIngressSources)", ing, np, err)
		}
	}
}

func TestNetworkPolicyFull(t *testing.T) {
	userNS := metav1.LabelSelector{MatchLabels: map[string]string{"team": "compute"}}
	userPod := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "nova"}}
	extra := networkingv1.NetworkPolicyEgressRule{
		Ports: []networkingv1.NetworkPolicyPort{npPort(corev1.ProtocolTCP, 4317)},
		To:    []networkingv1.NetworkPolicyPeer{{IPBlock: &networkingv1.IPBlock{CIDR: "10.0.0.0/8"}}},
	}
	p := NetworkPolicyParams{
		ID:   testID,
		Port: 8778,
		Spec: serviceapi.NetworkPolicySpec{
			Ingress: []serviceapi.NetworkPolicyIngressSource{
				{NamespaceSelector: &userNS, PodSelector: userPod},
				{NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"monitoring": "true"}}},
			},
			AdditionalEgress: []networkingv1.NetworkPolicyEgressRule{extra},
		},
		GatewayNamespace:  "gateways",
		OperatorNamespace: "operators",
		DatabasePort:      3306,
		KeystoneURL:       "https://keystone.example:5000/v3",
		CacheServers:      []string{"mc-0:11211", "mc-1:11211", "mc-2:11212"},
		ExtraEgressPorts:  []int32{443, 9000},
	}
	want := &networkingv1.NetworkPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "p1", Namespace: "openstack", Labels: objLabels},
		Spec: networkingv1.NetworkPolicySpec{
			PodSelector: metav1.LabelSelector{MatchLabels: selLabels},
			PolicyTypes: []networkingv1.PolicyType{networkingv1.PolicyTypeIngress, networkingv1.PolicyTypeEgress},
			Ingress: []networkingv1.NetworkPolicyIngressRule{{
				Ports: []networkingv1.NetworkPolicyPort{npPort(corev1.ProtocolTCP, 8778)},
				From: []networkingv1.NetworkPolicyPeer{
					{NamespaceSelector: &userNS, PodSelector: userPod},
					{NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"monitoring": "true"}}},
					{NamespaceSelector: nsSel("gateways")},
					{NamespaceSelector: nsSel("operators")},
				},
			}},
			Egress: []networkingv1.NetworkPolicyEgressRule{
				{Ports: []networkingv1.NetworkPolicyPort{npPort(corev1.ProtocolUDP, 53), npPort(corev1.ProtocolTCP, 53)}},
				{Ports: []networkingv1.NetworkPolicyPort{npPort(corev1.ProtocolTCP, 3306)}},
				{Ports: []networkingv1.NetworkPolicyPort{npPort(corev1.ProtocolTCP, 5000)}},
				{Ports: []networkingv1.NetworkPolicyPort{npPort(corev1.ProtocolTCP, 11211), npPort(corev1.ProtocolTCP, 11212)}},
				{Ports: []networkingv1.NetworkPolicyPort{npPort(corev1.ProtocolTCP, 443), npPort(corev1.ProtocolTCP, 9000)}},
				extra,
			},
		},
	}
	got, err := NetworkPolicy(p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("NetworkPolicy mismatch (-want +got):\n%s", diff)
	}
	got.Spec.Ingress[0].From[0].PodSelector.MatchLabels["app"] = "changed"
	if userPod.MatchLabels["app"] != "nova" {
		t.Error("NetworkPolicy aliases the user's pod selector")
	}
}

func TestNetworkPolicyMinimal(t *testing.T) {
	ns := metav1.LabelSelector{MatchLabels: map[string]string{"team": "compute"}}
	tests := []struct {
		name                string
		gatewayNS, operator string
		wantPeers           []networkingv1.NetworkPolicyPeer
	}{
		{name: "user sources only", wantPeers: []networkingv1.NetworkPolicyPeer{{NamespaceSelector: &ns}}},
		{
			name: "operator without gateway", operator: "operators",
			wantPeers: []networkingv1.NetworkPolicyPeer{{NamespaceSelector: &ns}, {NamespaceSelector: nsSel("operators")}},
		},
		{
			name: "gateway and operator share a namespace", gatewayNS: "infra", operator: "infra",
			wantPeers: []networkingv1.NetworkPolicyPeer{{NamespaceSelector: &ns}, {NamespaceSelector: nsSel("infra")}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := NetworkPolicy(NetworkPolicyParams{
				ID: testID, Port: 9311,
				Spec:             serviceapi.NetworkPolicySpec{Ingress: []serviceapi.NetworkPolicyIngressSource{{NamespaceSelector: &ns}}},
				GatewayNamespace: tt.gatewayNS, OperatorNamespace: tt.operator,
				DatabasePort: 3306, KeystoneURL: "http://keystone",
			})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.wantPeers, got.Spec.Ingress[0].From); diff != "" {
				t.Errorf("peers (-want +got):\n%s", diff)
			}
			wantEgress := []networkingv1.NetworkPolicyEgressRule{
				{Ports: []networkingv1.NetworkPolicyPort{npPort(corev1.ProtocolUDP, 53), npPort(corev1.ProtocolTCP, 53)}},
				{Ports: []networkingv1.NetworkPolicyPort{npPort(corev1.ProtocolTCP, 3306)}},
				{Ports: []networkingv1.NetworkPolicyPort{npPort(corev1.ProtocolTCP, 80)}},
				{Ports: []networkingv1.NetworkPolicyPort{npPort(corev1.ProtocolTCP, 11211)}},
			}
			if diff := cmp.Diff(wantEgress, got.Spec.Egress); diff != "" {
				t.Errorf("egress (-want +got):\n%s", diff)
			}
		})
	}
}

func TestKeystonePort(t *testing.T) {
	tests := []struct {
		url  string
		want int32
	}{
		{"https://keystone.example/v3", 443},
		{"http://keystone.example/v3", 80},
		{"HTTP://keystone.example", 80},
		{"https://keystone.example:5000/v3", 5000},
		{"http://keystone.example:35357", 35357},
		{"http://[fd00::1]:5000/", 5000},
		{"http://[fd00::1]/", 80},
		{"not a url", 443},
		{"http://host:notaport", 443},
		{"://", 443},
		{"", 443},
	}
	for _, tt := range tests {
		if got := KeystonePort(tt.url); got != tt.want {
			t.Errorf("KeystonePort(%q) = %d, want %d", tt.url, got, tt.want)
		}
	}
}

func TestCachePorts(t *testing.T) {
	tests := []struct {
		name    string
		servers []string
		want    []int32
	}{
		{name: "none defaults", servers: nil, want: []int32{11211}},
		{name: "dedup keeps first-seen order", servers: []string{"a:11212", "b:11211", "c:11212", "d:11211"}, want: []int32{11212, 11211}},
		{name: "missing port is default", servers: []string{"a", "b:11300"}, want: []int32{11211, 11300}},
		{name: "ipv6", servers: []string{"[fd00::1]:11213", "inet6:[fd00::2]:11214", "[fd00::3]"}, want: []int32{11213, 11214, 11211}},
		{name: "garbage port is default", servers: []string{"a:xyz", "b:0", "c:70000"}, want: []int32{11211}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, CachePorts(tt.servers)); diff != "" {
				t.Errorf("CachePorts (-want +got):\n%s", diff)
			}
		})
	}
}
