package bootstrap

import (
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/c5c3/openstack-operators/common/framework/service"
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

func TestLeaseTiming(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	o := BindFlags(fs, service.Profile{Kind: "Placement", APIPort: 8778}, "placement.openstack.c5c3.io")
	if err := leaseTiming(o); err != nil {
		t.Errorf("the default lease timing is refused: %v", err)
	}
	for _, tc := range []struct {
		args []string
		flag string // the flag the error names; "" accepts
	}{
		{[]string{"--leader-elect-lease-duration=1m", "--leader-elect-renew-deadline=40s", "--leader-elect-retry-period=5s"}, ""},
		{[]string{"--leader-elect-lease-duration=10s"}, "--leader-elect-lease-duration"},
		{[]string{"--leader-elect-renew-deadline=2400ms"}, "--leader-elect-renew-deadline"},
		{[]string{"--leader-elect-retry-period=0s"}, "--leader-elect-retry-period"},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		o := BindFlags(fs, service.Profile{Kind: "Placement", APIPort: 8778}, "placement.openstack.c5c3.io")
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		err := leaseTiming(o)
		switch {
		case tc.flag == "" && err != nil:
			t.Errorf("%v refused: %v", tc.args, err)
		case tc.flag != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.flag+" ")):
			t.Errorf("%v: error %v, want one naming %s", tc.args, err, tc.flag)
		}
	}
}

func TestWatchNamespacesFlag(t *testing.T) {
	for _, c := range []struct {
		args []string
		want []string
		err  string
	}{
		{args: nil, want: nil},
		{args: []string{"--watch-namespaces="}, want: nil},
		{args: []string{"--watch-namespaces=openstack"}, want: []string{"openstack"}},
		{args: []string{"--watch-namespaces= openstack, infra,openstack,"}, want: []string{"openstack", "infra"}},
		{args: []string{"--watch-namespaces=openstack,Team_A"}, err: `namespace "Team_A"`},
	} {
		fs := flag.NewFlagSet("test", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		o := BindFlags(fs, service.Profile{Kind: "Placement", APIPort: 8778}, "placement.openstack.c5c3.io")
		err := fs.Parse(c.args)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%v: error %v, want one naming %s", c.args, err, c.err)
			}
			continue
		}
		if err != nil || !slices.Equal(o.WatchNamespaces, c.want) {
			t.Errorf("%v: %q, %v; want %q", c.args, o.WatchNamespaces, err, c.want)
		}
	}
}
