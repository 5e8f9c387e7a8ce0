package render_test

import (
	"slices"
	"strings"
	"testing"

	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/barbican-operator/internal/render"
)

func TestNames(t *testing.T) {
	b := minimal()
	if got := render.ConfigBase(b); got != "barbican-config" {
		t.Errorf("ConfigBase = %q", got)
	}
	if got := render.DBSyncJobName(b); got != "barbican-db-sync" {
		t.Errorf("DBSyncJobName = %q", got)
	}
	if id := render.Identity(b); id.Service != "barbican" || id.Instance != "barbican" || id.ManagedBy != render.ManagedBy {
		t.Errorf("Identity = %+v", id)
	}
}

func TestDBCleanName(t *testing.T) {
	at43 := strings.Repeat("a", barbicanv1.MaxNameLength)
	cases := []struct{ name, want string }{
		{"barbican", "barbican-db-clean"},
		{at43, at43 + "-db-clean"},
		{at43 + "b", strings.Repeat("a", 34) + "-c9ab14f7-db-clean"},
		{"barbican-with-a-rather-long-inherited-name-01", "barbican-with-a-rather-long-inheri-79ab00d0-db-clean"},
		{strings.Repeat("x", 33) + "." + strings.Repeat("y", 30), strings.Repeat("x", 33) + "-ea7a8e63-db-clean"},
	}
	seen := map[string]bool{}
	for _, tc := range cases {
		b := &barbicanv1.Barbican{}
		b.Name = tc.name
		got := render.DBCleanName(b)
		if got != tc.want || len(got) > 52 {
			t.Errorf("DBCleanName(%q) = %q (%d), want %q", tc.name, got, len(got), tc.want)
		}
		if seen[got] {
			t.Errorf("DBCleanName collision on %q", got)
		}
		seen[got] = true
	}
}

func TestOpenBaoPorts(t *testing.T) {
	cases := []struct {
		urls []string
		want []int32
	}{
		{nil, []int32{}},
		{[]string{"https://openbao.openstack.svc:8200"}, []int32{8200}},
		{[]string{"https://vault.example.org", "https://a:8200", "https://b:8200", "http://dev"}, []int32{80, 443, 8200}},
		{[]string{"https://h:8201", "https://h:8200"}, []int32{8200, 8201}},
		{[]string{"not a url", "https://", "https://h:0", "ftp://h"}, []int32{}},
	}
	for _, tc := range cases {
		if got := render.OpenBaoPorts(tc.urls); !slices.Equal(got, tc.want) {
			t.Errorf("OpenBaoPorts(%q) = %v, want %v", tc.urls, got, tc.want)
		}
	}
}
