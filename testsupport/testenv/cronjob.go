package testenv

import (
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
)

// PeriodicCronJob is what a service's maintenance CronJob (Glance's
// DBPurge, Barbican's DBClean) must hold, as the shared builder
// (workload.CronJob) makes it.
type PeriodicCronJob struct {
	Schedule  string
	Suspend   bool
	Component string // the container name and the pod's component label
	Instance  string // the CR's name
	ManagedBy string
	DBTLS     bool // a db-tls volume is mounted
}

// CheckPeriodicCronJob reports each property of want the CronJob lacks, and
// the ones every such CronJob shares: one run at a time, a one-hour
// deadline, OnFailure restarts, the DSN as its only env, a restricted
// container.
func CheckPeriodicCronJob(t *testing.T, cj *batchv1.CronJob, want PeriodicCronJob) {
	t.Helper()
	js := cj.Spec.JobTemplate.Spec
	pod := js.Template.Spec
	c := pod.Containers[0]
	tls := false
	for _, v := range pod.Volumes {
		tls = tls || v.Name == "db-tls"
	}
	for _, ch := range []struct {
		what string
		ok   bool
	}{
		{"schedule " + want.Schedule, cj.Spec.Schedule == want.Schedule},
		{"suspend", cj.Spec.Suspend != nil && *cj.Spec.Suspend == want.Suspend},
		{"concurrency Forbid", cj.Spec.ConcurrencyPolicy == batchv1.ForbidConcurrent},
		{"deadline 3600", js.ActiveDeadlineSeconds != nil && *js.ActiveDeadlineSeconds == 3600},
		{"restart OnFailure", pod.RestartPolicy == corev1.RestartPolicyOnFailure},
		{"container " + want.Component, c.Name == want.Component},
		{"env DSN only", len(c.Env) == 1 && c.Env[0].Name == "OS_DATABASE__CONNECTION"},
		{"pod component " + want.Component, js.Template.Labels["app.kubernetes.io/component"] == want.Component},
		{"common labels on CronJob and job template", cj.Labels["app.kubernetes.io/instance"] == want.Instance &&
			cj.Spec.JobTemplate.Labels["app.kubernetes.io/managed-by"] == want.ManagedBy},
		{"db-tls iff TLS", tls == want.DBTLS},
		{"restricted", c.SecurityContext != nil && *c.SecurityContext.RunAsNonRoot && !*c.SecurityContext.AllowPrivilegeEscalation},
	} {
		if !ch.ok {
			t.Errorf("CronJob %s: %s does not hold", cj.Name, ch.what)
		}
	}
}
