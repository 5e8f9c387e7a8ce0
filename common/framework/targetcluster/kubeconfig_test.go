package targetcluster

import (
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const kubeconfigHead = `apiVersion: v1
kind: Config
clusters:
- name: target
  cluster:
    server: https://target.example.org:6443
    insecure-skip-tls-verify: true
contexts:
- name: target
  context:
    cluster: target
    user: operator
current-context: target
users:
`

const tokenUser = `- name: operator
  user:
    token: s3cr3t-token
`

const execUser = `- name: exec-user
  user:
    exec:
      apiVersion: client.authentication.k8s.io/v1
      command: /usr/bin/get-token
      interactiveMode: Never
`

const authProviderUser = `- name: oidc-user
  user:
    auth-provider:
      name: oidc
      config:
        idp-issuer-url: https://issuer.example.org
`

func registration(labels map[string]string, data map[string]string) *corev1.Secret {
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "c5c3-clusters", Name: "edge-1", Labels: labels}}
	if data != nil {
		s.Data = map[string][]byte{}
		for k, v := range data {
			s.Data[k] = []byte(v)
		}
	}
	return s
}

func TestParseRegistration(t *testing.T) {
	labelled := map[string]string{RegistrationLabel: RegistrationLabelValue}
	good := kubeconfigHead + tokenUser
	tests := []struct {
		name           string
		labels         map[string]string
		data           map[string]string
		wantErrIn      string
		wantNamespaces []string
	}{
		{name: "no label", data: map[string]string{KubeconfigKey: good}, wantErrIn: "lacks label"},
		{name: "wrong label value", labels: map[string]string{RegistrationLabel: "True"}, data: map[string]string{KubeconfigKey: good}, wantErrIn: "lacks label"},
		{name: "no data", labels: labelled, wantErrIn: "has no kubeconfig"},
		{name: "empty kubeconfig", labels: labelled, data: map[string]string{KubeconfigKey: ""}, wantErrIn: "has no kubeconfig"},
		{name: "unparseable kubeconfig", labels: labelled, data: map[string]string{KubeconfigKey: "clusters: [unclosed"}, wantErrIn: "parsing kubeconfig"},
		{name: "no current context", labels: labelled, data: map[string]string{KubeconfigKey: strings.Replace(good, "current-context: target\n", "", 1)}, wantErrIn: "building client config"},
		{name: "exec user refused", labels: labelled, data: map[string]string{KubeconfigKey: good + execUser}, wantErrIn: `user "exec-user" uses exec or auth-provider`},
		{name: "auth-provider user refused", labels: labelled, data: map[string]string{KubeconfigKey: good + authProviderUser}, wantErrIn: `user "oidc-user" uses exec or auth-provider`},
		{name: "token user, no namespaces", labels: labelled, data: map[string]string{KubeconfigKey: good}},
		{name: "namespaces list", labels: labelled, data: map[string]string{KubeconfigKey: good, NamespacesKey: "openstack, tenant-a,tenant-b"}, wantNamespaces: []string{"openstack", "tenant-a", "tenant-b"}},
		{name: "single namespace", labels: labelled, data: map[string]string{KubeconfigKey: good, NamespacesKey: "openstack"}, wantNamespaces: []string{"openstack"}},
		{name: "empty namespaces refused", labels: labelled, data: map[string]string{KubeconfigKey: good, NamespacesKey: ""}, wantErrIn: "namespaces is empty"},
		{name: "blank namespaces refused", labels: labelled, data: map[string]string{KubeconfigKey: good, NamespacesKey: "  "}, wantErrIn: "namespaces is empty"},
		{name: "empty entry refused", labels: labelled, data: map[string]string{KubeconfigKey: good, NamespacesKey: "a,,b"}, wantErrIn: `namespaces entry ""`},
		{name: "bad DNS label refused", labels: labelled, data: map[string]string{KubeconfigKey: good, NamespacesKey: "openstack,Tenant_A"}, wantErrIn: `namespaces entry "Tenant_A"`},
		{name: "too long label refused", labels: labelled, data: map[string]string{KubeconfigKey: good, NamespacesKey: strings.Repeat("a", 64)}, wantErrIn: "namespaces entry"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reg, err := ParseRegistration(registration(tt.labels, tt.data))
			if tt.wantErrIn != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrIn) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErrIn)
				}
				if reg.Config != nil {
					t.Error("a refused registration returned a config")
				}
				return
			}
			if err != nil {
				t.Fatalf("unexpected error: %v", err)
			}
			if reg.Config == nil || reg.Config.Host != "https://target.example.org:6443" || reg.Config.BearerToken != "s3cr3t-token" {
				t.Fatalf("config = %+v, want the target host and bearer token", reg.Config)
			}
			if !reg.Config.Insecure {
				t.Error("insecure-skip-tls-verify not carried over")
			}
			if !slices.Equal(reg.Namespaces, tt.wantNamespaces) || (tt.wantNamespaces == nil) != (reg.Namespaces == nil) {
				t.Errorf("namespaces = %#v, want %#v", reg.Namespaces, tt.wantNamespaces)
			}
		})
	}
}
