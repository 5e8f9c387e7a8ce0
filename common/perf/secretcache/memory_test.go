package secretcache

import (
	"fmt"
	"runtime"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/testsupport/memstat"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// BenchmarkNamespaceInformer measures what one namespace's Secret informer
// costs the process (heap in use, RSS, goroutines), with two handlers as the
// operators' Secret watches add (owned and referenced Secrets), against a
// real API server: b.N namespaces, each with one tracked object and one
// Secret. docs/decisions/caching.md quotes it.
func BenchmarkNamespaceInformer(b *testing.B) {
	_, cfg, ctx := testenv.StartForTest(b, testenv.Options{WithoutGatewayAPI: true})
	c, err := client.New(cfg, client.Options{})
	if err != nil {
		b.Fatal(err)
	}
	sc := startB(b, ctx, cfg)
	inf, err := sc.GetInformer(ctx, secretMeta())
	if err != nil {
		b.Fatal(err)
	}
	for range 2 {
		if _, err := inf.AddEventHandler(toolscache.ResourceEventHandlerFuncs{}); err != nil {
			b.Fatal(err)
		}
	}
	for i := range b.N {
		ns := fmt.Sprintf("b%d", i)
		for _, o := range []client.Object{&corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, secret(ns, "s")} {
			if err := c.Create(ctx, o); err != nil {
				b.Fatal(err)
			}
		}
	}
	before := sample(b)
	b.ResetTimer()
	for i := range b.N {
		if err := c.Create(ctx, tracked(fmt.Sprintf("b%d", i), "cr")); err != nil {
			b.Fatal(err)
		}
	}
	for len(sc.Namespaces()) < b.N || !sc.WaitForCacheSync(ctx) {
		runtime.Gosched()
	}
	b.StopTimer()
	after := sample(b)
	n := float64(b.N)
	b.ReportMetric(float64(after.HeapInuseBytes-before.HeapInuseBytes)/n, "heap-B/ns")
	b.ReportMetric(float64(after.RSSBytes-before.RSSBytes)/n, "rss-B/ns")
	b.ReportMetric(float64(after.goroutines-before.goroutines)/n, "goroutines/ns")
}

type memSample struct {
	memstat.Sample
	goroutines int
}

func sample(b *testing.B) memSample {
	s, err := memstat.Take()
	if err != nil {
		b.Fatal(err)
	}
	return memSample{Sample: s, goroutines: runtime.NumGoroutine()}
}
