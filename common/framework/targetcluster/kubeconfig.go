package targetcluster

import (
	"errors"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// Registration Secret contract.
const (
	RegistrationLabel      = "sigs.k8s.io/multicluster-runtime-kubeconfig"
	RegistrationLabelValue = "true"
	KubeconfigKey          = "kubeconfig"
	NamespacesKey          = "namespaces"
)

// Registration is a parsed registration Secret.
type Registration struct {
	Config *rest.Config
	// Namespaces restricts the cluster's cache; nil means cluster-wide.
	Namespaces []string
}

// ParseRegistration validates a registration Secret: a labelled Secret with a
// kubeconfig whose users authenticate by token or client certificate only.
func ParseRegistration(s *corev1.Secret) (Registration, error) {
	if s.Labels[RegistrationLabel] != RegistrationLabelValue {
		return Registration{}, fmt.Errorf("secret %s/%s lacks label %s=%s", s.Namespace, s.Name, RegistrationLabel, RegistrationLabelValue)
	}
	raw, ok := s.Data[KubeconfigKey]
	if !ok || len(raw) == 0 {
		return Registration{}, fmt.Errorf("secret %s/%s has no %s", s.Namespace, s.Name, KubeconfigKey)
	}
	cfg, err := clientcmd.Load(raw)
	if err != nil {
		return Registration{}, fmt.Errorf("parsing kubeconfig of %s: %w", s.Name, err)
	}
	for name, user := range cfg.AuthInfos {
		if user.Exec != nil || user.AuthProvider != nil {
			return Registration{}, fmt.Errorf("kubeconfig of %s: user %q uses exec or auth-provider; only token or client certificate are accepted", s.Name, name)
		}
	}
	rc, err := clientcmd.NewDefaultClientConfig(*cfg, nil).ClientConfig()
	if err != nil {
		return Registration{}, fmt.Errorf("building client config of %s: %w", s.Name, err)
	}
	reg := Registration{Config: rc}
	if v, ok := s.Data[NamespacesKey]; ok {
		if reg.Namespaces, err = parseNamespaces(string(v)); err != nil {
			return Registration{}, fmt.Errorf("secret %s: %w", s.Name, err)
		}
	}
	return reg, nil
}

func parseNamespaces(v string) ([]string, error) {
	if strings.TrimSpace(v) == "" {
		return nil, errors.New("namespaces is empty")
	}
	var out []string
	for _, ns := range strings.Split(v, ",") {
		ns = strings.TrimSpace(ns)
		if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
			return nil, fmt.Errorf("namespaces entry %q: %s", ns, strings.Join(errs, "; "))
		}
		out = append(out, ns)
	}
	return out, nil
}
