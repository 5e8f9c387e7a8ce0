package manager

import (
	"github.com/c5c3/openstack-operators/common/service"

	"flag"
	"testing"
)

func TestClusterDomainFlag(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	o := BindFlags(fs, service.Profile{Kind: "Placement", APIPort: 8778}, "placement.openstack.c5c3.io")
	if o.ClusterDomain != "cluster.local" {
		t.Errorf("default --cluster-domain %q, want cluster.local", o.ClusterDomain)
	}
	if err := fs.Parse([]string{"--cluster-domain=corp.example"}); err != nil {
		t.Fatal(err)
	}
	if o.ClusterDomain != "corp.example" {
		t.Errorf("--cluster-domain parsed as %q", o.ClusterDomain)
	}
}

func TestClusterDomain(t *testing.T) {
	for in, want := range map[string]string{
		"":              "cluster.local",
		"cluster.local": "cluster.local",
		"corp.example.": "corp.example",
		"k8s":           "k8s",
	} {
		if got, err := clusterDomain(in); err != nil || got != want {
			t.Errorf("clusterDomain(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"Cluster.Local", "cluster..local", "-cluster.local", "cluster.local/x"} {
		if got, err := clusterDomain(bad); err == nil {
			t.Errorf("clusterDomain(%q) = %q, want an error", bad, got)
		}
	}
}
