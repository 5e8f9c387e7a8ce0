// Package bootstrap assembles a service operator: scheme, cache, client,
// metrics, target-cluster resolver, health endpoints and the shared
// reconciler its controllers embed, from the flags every operator takes.
// An operator's cmd/main.go is one call to Main; tests start the same
// manager in-process through New.
package bootstrap

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/service"
	"github.com/c5c3/openstack-operators/common/lib/dialer"
	"github.com/c5c3/openstack-operators/common/perf/probe"
)

// Options are the operator's flags.
type Options struct {
	MetricsAddr string
	ProbeAddr   string
	LeaderElect bool
	// LeaseDuration, RenewDeadline and RetryPeriod time the leader
	// election: how long a lease the leader stopped renewing blocks the
	// others, how long the leader keeps retrying a renewal before it gives
	// up leadership (and exits), how often candidates try.
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	EnableWebhooks                            bool
	WebhookPort                               int
	WebhookCertDir                            string
	SyncPeriod                                time.Duration
	// WatchNamespaces limits the operator to these namespaces (its cache,
	// and its webhooks refuse objects elsewhere); empty watches all.
	WatchNamespaces         []string
	ClustersNamespace       string
	MaxConcurrentReconciles int
	// OperatorNamespace is allowed into NetworkPolicies; from POD_NAMESPACE.
	OperatorNamespace string
	// ClusterDomain is the cluster's DNS domain, for the in-cluster API URL
	// (<cr>.<ns>.svc.<domain>); empty means cluster.local.
	ClusterDomain string
	// ProbeViaAPIServer sends the health probe through the API server's
	// services/proxy, for an operator running outside the cluster network.
	ProbeViaAPIServer bool
	// ProbeURLAnnotation honours the probe.URLAnnotation loopback URL on a
	// CR, for an operator run next to a locally started API.
	ProbeURLAnnotation bool
	// AbandonGrace is how long deletion waits for an unreachable target cluster.
	AbandonGrace time.Duration
	// Resolve maps host:port names the operator dials (a managed OpenBao
	// instance's Service) to other addresses, for an operator run outside
	// the cluster network; TLS still verifies the name.
	Resolve *dialer.Table
	// ProbeURL, not a flag, replaces the URL the API health probe hits, for
	// a program that builds the manager in its own process next to an API
	// it started (the e2e suites and the benchmark harness).
	ProbeURL func(cr client.Object, inCluster string) string
	// PrintVersion prints the binary's version and exits.
	PrintVersion bool
}

// BindFlags registers the flags with their defaults; p names the operator's
// CR kind, lease and API port in the help texts.
func BindFlags(fs *flag.FlagSet, p service.Profile, leaseName string) *Options {
	o := &Options{Resolve: &dialer.Table{}}
	kinds := p.Kind + "s"
	fs.StringVar(&o.MetricsAddr, "metrics-bind-address", ":8080", "address of the metrics endpoint; 0 disables it")
	fs.StringVar(&o.ProbeAddr, "health-probe-bind-address", ":8081", "address of the healthz/readyz endpoints")
	fs.BoolVar(&o.LeaderElect, "leader-elect", false, "elect a leader (lease "+leaseName+") before reconciling")
	fs.DurationVar(&o.LeaseDuration, "leader-elect-lease-duration", 15*time.Second, "how long a candidate waits on a lease its holder stopped renewing before taking it (the failover time after a crash)")
	fs.DurationVar(&o.RenewDeadline, "leader-elect-renew-deadline", 10*time.Second, "how long the leader retries renewing its lease (an API server outage) before giving up leadership and exiting; below the lease duration")
	fs.DurationVar(&o.RetryPeriod, "leader-elect-retry-period", 2*time.Second, "how often candidates try to acquire, and the leader to renew, the lease")
	fs.BoolVar(&o.EnableWebhooks, "enable-webhooks", true, "serve the defaulting and validating webhooks")
	fs.IntVar(&o.WebhookPort, "webhook-port", 9443, "port of the webhook server")
	fs.StringVar(&o.WebhookCertDir, "webhook-cert-dir", "", "directory with tls.crt and tls.key of the webhook server")
	fs.DurationVar(&o.SyncPeriod, "sync-period", 10*time.Minute, "full resync interval")
	fs.Func("watch-namespaces", "ns[,ns...]: watch only these namespaces (the cache holds nothing else, the webhooks refuse "+kinds+" elsewhere); empty watches all",
		func(s string) error { return o.setWatchNamespaces(s) })
	fs.StringVar(&o.ClustersNamespace, "clusters-namespace", "c5c3-clusters", "namespace of the target-cluster registration Secrets; empty disables target clusters")
	fs.IntVar(&o.MaxConcurrentReconciles, "max-concurrent-reconciles", 2, kinds+" reconciled in parallel")
	fs.StringVar(&o.ClusterDomain, "cluster-domain", service.DefaultClusterDomain,
		fmt.Sprintf("DNS domain of the cluster: the health probe and status.endpoint (without a gateway) use http://<name>.<namespace>.svc.<domain>:%d/", p.APIPort))
	fs.BoolVar(&o.ProbeViaAPIServer, "probe-via-apiserver", false, "send the API health probe through the API server's services/proxy (operator outside the cluster network)")
	fs.BoolVar(&o.ProbeURLAnnotation, "probe-url-annotation", false, "probe the loopback URL in a "+p.Kind+"'s "+probe.URLAnnotation+" annotation instead of its Service (development and e2e runs outside the cluster; never in production)")
	fs.DurationVar(&o.AbandonGrace, "abandon-grace", 5*time.Minute, "how long deletion waits for an unreachable target cluster before abandoning its children")
	fs.BoolVar(&o.PrintVersion, "version", false, "print the operator's version, commit, build date and Go version, and exit")
	fs.Var(o.Resolve, "resolve", "host:port=address[,...]: dial address instead of host:port for the servers the operator calls itself (a managed OpenBao instance's Service), TLS still verifying host (an operator run outside the cluster network; never in production)")
	return o
}

// leaseTiming checks the leader-election durations as client-go's elector
// does when it starts, so that a bad combination fails at start-up with the
// flags' names: lease duration > renew deadline > 1.2 × retry period > 0.
func leaseTiming(o *Options) error {
	switch {
	case o.RetryPeriod <= 0:
		return fmt.Errorf("--leader-elect-retry-period %s: must be positive", o.RetryPeriod)
	case float64(o.RenewDeadline) <= 1.2*float64(o.RetryPeriod):
		return fmt.Errorf("--leader-elect-renew-deadline %s: must exceed 1.2 × --leader-elect-retry-period (%s)", o.RenewDeadline, o.RetryPeriod)
	case o.LeaseDuration <= o.RenewDeadline:
		return fmt.Errorf("--leader-elect-lease-duration %s: must exceed --leader-elect-renew-deadline (%s)", o.LeaseDuration, o.RenewDeadline)
	}
	return nil
}

// clusterDomain validates --cluster-domain: a DNS subdomain, a trailing dot
// dropped; empty means the default.
func clusterDomain(s string) (string, error) {
	d := strings.TrimSuffix(s, ".")
	if d == "" {
		return service.DefaultClusterDomain, nil
	}
	if errs := validation.IsDNS1123Subdomain(d); len(errs) > 0 {
		return "", fmt.Errorf("--cluster-domain %q: %s", s, strings.Join(errs, "; "))
	}
	return d, nil
}

// setWatchNamespaces parses a comma-separated list of namespace names; an
// empty list (or flag value) means every namespace.
func (o *Options) setWatchNamespaces(s string) error {
	o.WatchNamespaces = nil
	for _, ns := range strings.Split(s, ",") {
		ns = strings.TrimSpace(ns)
		if ns == "" {
			continue
		}
		if errs := validation.IsDNS1123Label(ns); len(errs) > 0 {
			return fmt.Errorf("namespace %q: %s", ns, strings.Join(errs, "; "))
		}
		if !slices.Contains(o.WatchNamespaces, ns) {
			o.WatchNamespaces = append(o.WatchNamespaces, ns)
		}
	}
	return nil
}
