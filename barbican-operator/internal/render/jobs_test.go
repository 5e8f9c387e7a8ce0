package render_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
	"github.com/c5c3/openstack-operators/common/lib/workload"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

func TestDBSyncJob(t *testing.T) {
	for _, b := range []*barbicanv1.Barbican{minimal(), full()} {
		job := render.DBSyncJob(b, testConfigSecret, testDBTarget)
		spec := job.Spec.Template.Spec
		c := spec.Containers[0]
		if job.Name != b.Name+"-db-sync" || job.Name != render.DBSyncJobName(b) || c.Name != "db-sync" {
			t.Errorf("Job %s container %s", job.Name, c.Name)
		}
		if !slices.Equal(c.Command, []string{"/bin/sh", "-eu", "-c", "barbican-manage db upgrade"}) {
			t.Errorf("command = %q", c.Command)
		}
		if spec.RestartPolicy != corev1.RestartPolicyNever || *job.Spec.BackoffLimit != 4 || c.Image != b.Spec.Image.Reference() {
			t.Errorf("restart %s backoff %d image %s", spec.RestartPolicy, *job.Spec.BackoffLimit, c.Image)
		}
		if got, want := envSources(c), map[string]string{"OS_DATABASE__CONNECTION": b.Name + "-db-connection/connection"}; !maps.Equal(got, want) {
			t.Errorf("env = %v, want %v", got, want)
		}
		wantMounts := map[string]string{"config": "/etc/barbican ro"}
		if b.Spec.Database.TLS != nil {
			wantMounts["db-tls"] = "/etc/barbican-db-tls/ ro"
		}
		if got := testenv.Mounts(c); !maps.Equal(got, wantMounts) {
			t.Errorf("mounts = %v, want %v", got, wantMounts)
		}
		if v := testenv.Volume(spec.Volumes, "config"); v == nil || v.Secret == nil || v.Secret.SecretName != testConfigSecret {
			t.Errorf("config volume = %+v, want Secret %s", v, testConfigSecret)
		}
		if job.Spec.Template.Annotations[render.DBTargetHash] != testDBTarget {
			t.Errorf("pod annotations = %v", job.Spec.Template.Annotations)
		}
	}
}

func TestDBSyncJobRerunKey(t *testing.T) {
	const key = workload.PodSpecHashAnnotation
	b := minimal()
	base := render.DBSyncJob(b, testConfigSecret, "a").Annotations[key]
	if base == "" {
		t.Fatal("no rerun key")
	}
	if render.DBSyncJob(b, testConfigSecret, "b").Annotations[key] == base {
		t.Error("database target change keeps the rerun key")
	}
	if render.DBSyncJob(b, "barbican-config-ffffffff", "a").Annotations[key] == base {
		t.Error("config change keeps the rerun key")
	}
	other := minimal()
	other.Spec.Image.Tag = "2025.2-p1"
	if render.DBSyncJob(other, testConfigSecret, "a").Annotations[key] == base {
		t.Error("image change keeps the rerun key")
	}
}

func TestDBCleanCronJob(t *testing.T) {
	long := minimal()
	long.Name = "barbican-with-a-rather-long-inherited-name-01" // 45 > 43
	const manage = "barbican-manage db clean --min-days "
	cases := []struct {
		name, golden string
		b            *barbicanv1.Barbican
		suspend      bool
		cronJobName  string
		schedule     string
		wantSuspend  bool
		script       string
		tls          bool
	}{
		{"default", "default", minimal(), false, "barbican-db-clean", "1 0 * * *", false,
			manage + "90 --soft-delete-expired-secrets", false},
		{"suspended by spec, with flags", "suspended-flags", full(), false, "barbican-db-clean", "@weekly", true,
			manage + "30 --soft-delete-expired-secrets --clean-unassociated-projects", true},
		{"long inherited name", "long-name", long, false, "barbican-with-a-rather-long-inheri-79ab00d0-db-clean", "1 0 * * *", false,
			manage + "90 --soft-delete-expired-secrets", false},
		{"migration pause", "", minimal(), true, "barbican-db-clean", "1 0 * * *", true,
			manage + "90 --soft-delete-expired-secrets", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cj := render.DBCleanCronJob(tc.b, testConfigSecret, tc.suspend)
			if tc.golden != "" {
				checkGolden(t, "cronjob."+tc.golden+".yaml", marshal(t, cj), true)
			}
			if cj.Name != tc.cronJobName || cj.Name != render.DBCleanName(tc.b) || len(cj.Name) > 52 {
				t.Errorf("name %q, want %q (≤52)", cj.Name, tc.cronJobName)
			}
			testenv.CheckPeriodicCronJob(t, cj, testenv.PeriodicCronJob{Schedule: tc.schedule, Suspend: tc.wantSuspend,
				Component: "db-clean", Instance: tc.b.Name, ManagedBy: "barbican-operator", DBTLS: tc.tls})
			pod := cj.Spec.JobTemplate.Spec.Template.Spec
			c := pod.Containers[0]
			checks := []struct {
				what string
				ok   bool
			}{
				{"image spec.image", c.Image == tc.b.Spec.Image.Reference()},
				{"command", strings.Join(c.Command, " ") == tc.script},
				{"config Secret", testenv.Volume(pod.Volumes, "config") != nil && testenv.Volume(pod.Volumes, "config").Secret != nil &&
					testenv.Volume(pod.Volumes, "config").Secret.SecretName == testConfigSecret},
				{"read-only root", *c.SecurityContext.ReadOnlyRootFilesystem},
			}
			for _, ch := range checks {
				if !ch.ok {
					t.Errorf("%s does not hold", ch.what)
				}
			}
		})
	}
}

func TestDBCleanCommand(t *testing.T) {
	cases := []struct {
		days       int32
		soft, proj bool
		want       string
	}{
		{90, true, false, "barbican-manage db clean --min-days 90 --soft-delete-expired-secrets"},
		{7, false, false, "barbican-manage db clean --min-days 7"},
		{1, true, true, "barbican-manage db clean --min-days 1 --soft-delete-expired-secrets --clean-unassociated-projects"},
		{0, false, true, "barbican-manage db clean --min-days 90 --clean-unassociated-projects"},
		{-3, false, false, "barbican-manage db clean --min-days 90"},
	}
	for _, tc := range cases {
		if got := strings.Join(render.DBCleanCommand(tc.days, tc.soft, tc.proj), " "); got != tc.want {
			t.Errorf("DBCleanCommand(%d, %v, %v) = %q, want %q", tc.days, tc.soft, tc.proj, got, tc.want)
		}
	}
	// The unset block resolves to the defaults at render time.
	b := minimal()
	b.Spec.DBClean = &barbicanv1.DBCleanSpec{}
	c := render.DBCleanCronJob(b, testConfigSecret, false)
	if got := strings.Join(c.Spec.JobTemplate.Spec.Template.Spec.Containers[0].Command, " "); !strings.HasSuffix(got, "--min-days 90 --soft-delete-expired-secrets") {
		t.Errorf("empty dbClean renders %q", got)
	}
}
