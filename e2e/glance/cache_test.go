package glance_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/e2e/poll"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// TestImageCacheSidecar: with spec.imageCache every API pod runs the
// cache-maintenance sidecar beside glance-api, on the pod's one cache
// volume. Its loop runs the real glance-cache-pruner and
// glance-cache-cleaner on the maintenance interval (1m here): a download
// stalled in the cache's incomplete/ directory for two days is removed by
// the cleaner, no pass fails, and the sidecar keeps running.
func TestImageCacheSidecar(t *testing.T) {
	limit := resource.MustParse("64Mi")
	s := newSite(t, "2025.2", func(g *glancev1.Glance) {
		g.Spec.ImageCache = &glancev1.ImageCacheSpec{SizeLimit: &limit, MaintenanceInterval: &metav1.Duration{Duration: time.Minute}}
	})
	s.ready()
	replicas := int(*s.deployment().Spec.Replicas)
	poll.Until(t, waitLong, func() error {
		if n := len(env.Machine.Runner.Sidecars(s.NS, "cache-maintenance")); n != replicas {
			return fmt.Errorf("%d cache-maintenance sidecars running, want one per API pod (%d)", n, replicas)
		}
		return nil
	})
	sc := env.Machine.Runner.Sidecars(s.NS, "cache-maintenance")[0]
	// glance-api made the cache's directories at its start.
	stalled := filepath.Join(sc.Volume("image-cache"), "incomplete", "stalled-download")
	poll.Must(t, os.WriteFile(stalled, []byte("half an image"), 0o644))
	twoDaysAgo := time.Now().Add(-48 * time.Hour)
	poll.Must(t, os.Chtimes(stalled, twoDaysAgo, twoDaysAgo))

	poll.Until(t, waitLong, func() error {
		if sc.Proc.Exited() {
			t.Fatalf("cache-maintenance of %s exited (code %d):\n%s", sc.Pod, sc.Proc.ExitCode(), sc.Proc.Log())
		}
		if _, err := os.Stat(stalled); err == nil {
			return fmt.Errorf("the stalled download is still in the cache of %s", sc.Pod)
		}
		return nil
	})
	if log := sc.Proc.Log(); strings.Contains(log, "glance-cache-maintenance failed") {
		t.Errorf("a maintenance pass failed:\n%s", log)
	}
}
