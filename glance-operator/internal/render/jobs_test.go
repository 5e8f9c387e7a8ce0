package render_test

import (
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/c5c3/openstack-operators/common/lib/workload"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

func TestMigrationJobs(t *testing.T) {
	const manage = "glance-manage --config-dir /etc/glance/glance-api.conf.d/"
	for _, g := range []*glancev1.Glance{minimal(), full()} {
		tls := g.Spec.Database.TLS != nil
		jobs := map[string]string{
			"db-sync":   manage + " db sync && " + manage + " db load_metadefs --path /var/lib/openstack/etc/glance/metadefs",
			"db-expand": manage + " db expand", "db-migrate": manage + " db migrate", "db-contract": manage + " db contract",
		}
		for suffix, script := range jobs {
			job := render.DBSyncJob(g, testConfigMap, testDBTarget)
			if suffix != "db-sync" {
				phase := strings.TrimPrefix(suffix, "db-")
				job = render.PhaseJob(g, phase, testConfigMap, testDBTarget)
				if got := render.PhaseJobName(g, phase); got != job.Name {
					t.Errorf("PhaseJobName = %s, Job %s", got, job.Name)
				}
			}
			spec := job.Spec.Template.Spec
			c := spec.Containers[0]
			if job.Name != g.Name+"-"+suffix || c.Name != suffix {
				t.Errorf("job %s container %s, want suffix %s", job.Name, c.Name, suffix)
			}
			if !slices.Equal(c.Command, []string{"/bin/sh", "-eu", "-c", script}) {
				t.Errorf("%s command = %q", suffix, c.Command)
			}
			if spec.RestartPolicy != corev1.RestartPolicyNever || *job.Spec.BackoffLimit != 4 || c.Image != g.Spec.Image.Reference() {
				t.Errorf("%s: restart %s backoff %d image %s", suffix, spec.RestartPolicy, *job.Spec.BackoffLimit, c.Image)
			}
			if len(c.Env) != 1 || c.Env[0].Name != "OS_DATABASE__CONNECTION" || c.Env[0].ValueFrom == nil {
				t.Errorf("%s env = %+v", suffix, c.Env)
			}
			if job.Spec.Template.Annotations[render.DBTargetHash] != testDBTarget {
				t.Errorf("%s pod annotations = %v", suffix, job.Spec.Template.Annotations)
			}
			wantMounts := map[string]string{"config": "/etc/glance/glance-api.conf.d/ ro"}
			if tls {
				wantMounts["db-tls"] = "/etc/glance/db-tls/ ro"
			}
			if got := testenv.Mounts(c); !mapsEqual(got, wantMounts) {
				t.Errorf("%s mounts = %v, want %v", suffix, got, wantMounts)
			}
		}
	}
	g := full()
	for _, phase := range []string{render.PhaseExpand, render.PhaseMigrate, render.PhaseContract} {
		checkGolden(t, "full.db-"+phase+"-job.yaml", marshal(t, render.PhaseJob(g, phase, testConfigMap, testDBTarget)), true)
	}
}

func TestMigrationJobRerunKey(t *testing.T) {
	const key = workload.PodSpecHashAnnotation
	g := minimal()
	base := render.PhaseJob(g, render.PhaseExpand, testConfigMap, "a").Annotations[key]
	if base == "" {
		t.Fatal("no rerun key")
	}
	if render.PhaseJob(g, render.PhaseExpand, testConfigMap, "b").Annotations[key] == base {
		t.Error("database target change keeps the rerun key")
	}
	if render.PhaseJob(g, render.PhaseExpand, "glance-config-ffffffff", "a").Annotations[key] == base {
		t.Error("config change keeps the rerun key")
	}
	other := minimal()
	other.Spec.Image.Tag = "2025.2-p1"
	if render.PhaseJob(other, render.PhaseExpand, testConfigMap, "a").Annotations[key] == base {
		t.Error("image change keeps the rerun key")
	}
}

func purgeCase() *glancev1.Glance {
	g := full()
	g.Spec.DBPurge = &glancev1.DBPurgeSpec{RetentionDays: new(int32(7)), Schedule: "@weekly", PurgeImagesTable: new(true), Suspend: true}
	return g
}

func TestDBPurgeCronJob(t *testing.T) {
	const manage = "glance-manage --config-dir /etc/glance/glance-api.conf.d/"
	long := minimal()
	long.Name = "glance-with-a-rather-long-name-for-the-images-1" // 47 > 43
	cases := []struct {
		name, golden string
		g            *glancev1.Glance
		cronJobName  string
		schedule     string
		suspend      bool
		script       string
		tls          bool
	}{
		{"default", "default", minimal(), "glance-db-purge", "1 0 * * *", false,
			manage + " db purge --age_in_days 30 --max_rows 1000", false},
		{"purge images table, suspended", "purge-images-suspended", purgeCase(), "glance-db-purge", "@weekly", true,
			manage + " db purge --age_in_days 7 --max_rows 1000 && " + manage + " db purge_images_table --age_in_days 7 --max_rows 1000", true},
		{"long name", "long-name", long, "glance-with-a-rather-long-name-for-1b6d3917-db-purge", "1 0 * * *", false,
			manage + " db purge --age_in_days 30 --max_rows 1000", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cj := render.DBPurgeCronJob(tc.g, testConfigMap)
			checkGolden(t, "cronjob."+tc.golden+".yaml", marshal(t, cj), true)
			if cj.Name != tc.cronJobName || cj.Name != render.CronJobName(tc.g) || len(cj.Name) > 52 {
				t.Errorf("name %q, want %q (≤52)", cj.Name, tc.cronJobName)
			}
			testenv.CheckPeriodicCronJob(t, cj, testenv.PeriodicCronJob{Schedule: tc.schedule, Suspend: tc.suspend,
				Component: "db-purge", Instance: tc.g.Name, ManagedBy: "glance-operator", DBTLS: tc.tls})
			js := cj.Spec.JobTemplate.Spec
			c := js.Template.Spec.Containers[0]
			checks := []struct {
				what string
				ok   bool
			}{
				{"history limits unset", cj.Spec.SuccessfulJobsHistoryLimit == nil && cj.Spec.FailedJobsHistoryLimit == nil},
				{"no backoffLimit", js.BackoffLimit == nil},
				{"command", slices.Equal(c.Command, []string{"/bin/sh", "-eu", "-c", tc.script})},
			}
			for _, ck := range checks {
				if !ck.ok {
					t.Errorf("%s wrong:\n%s", ck.what, marshal(t, cj))
				}
			}
		})
	}
}

func TestCronJobName(t *testing.T) {
	mk := func(name string) *glancev1.Glance {
		return &glancev1.Glance{ObjectMeta: metav1.ObjectMeta{Name: name}}
	}
	exact := strings.Repeat("a", 43)
	if got := render.CronJobName(mk(exact)); got != exact+"-db-purge" {
		t.Errorf("43 characters: %s", got)
	}
	// The 34-character cut ends in "-." which is trimmed before the hash.
	cut := strings.Repeat("b", 32) + "-.c" + strings.Repeat("d", 20)
	got := render.CronJobName(mk(cut))
	if !strings.HasPrefix(got, strings.Repeat("b", 32)+"-") || strings.Contains(got, "-.") || !strings.HasSuffix(got, "-db-purge") ||
		len(got) != 32+1+8+9 {
		t.Errorf("trimmed long name: %s", got)
	}
	a, b := render.CronJobName(mk(strings.Repeat("x", 60))), render.CronJobName(mk(strings.Repeat("x", 61)))
	if a == b || len(a) != 52 || len(b) != 52 {
		t.Errorf("long names must stay distinct and 52 long: %s %s", a, b)
	}
}

func TestEffectiveDBPurge(t *testing.T) {
	cases := []struct {
		in   *glancev1.DBPurgeSpec
		want render.DBPurge
	}{
		{nil, render.DBPurge{Schedule: "1 0 * * *", RetentionDays: 30}},
		{&glancev1.DBPurgeSpec{}, render.DBPurge{Schedule: "1 0 * * *", RetentionDays: 30}},
		{&glancev1.DBPurgeSpec{RetentionDays: new(int32(0))}, render.DBPurge{Schedule: "1 0 * * *", RetentionDays: 30}},
		{&glancev1.DBPurgeSpec{RetentionDays: new(int32(1)), Schedule: "*/5 * * * *", PurgeImagesTable: new(false), Suspend: true},
			render.DBPurge{Schedule: "*/5 * * * *", RetentionDays: 1, Suspend: true}},
	}
	for _, tc := range cases {
		g := minimal()
		g.Spec.DBPurge = tc.in
		if got := render.EffectiveDBPurge(g); got != tc.want {
			t.Errorf("EffectiveDBPurge(%+v) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}
