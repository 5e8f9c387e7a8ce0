package bench

import (
	"net/url"
	"strings"
	"testing"
)

func TestRequestKey(t *testing.T) {
	tests := []struct {
		method, path, contentType string
		want                      string
		ok                        bool
	}{
		{"GET", "/api/v1/namespaces/ns/secrets/s", "", "GET secrets", true},
		{"GET", "/api/v1/namespaces/ns/secrets", "", "LIST secrets", true},
		{"GET", "/api/v1/secrets", "", "LIST secrets", true},
		{"GET", "/api/v1/namespaces/ns/secrets?watch=true", "", "", false},
		{"PUT", "/api/v1/namespaces/ns/secrets/s", "", "PUT secrets", true},
		{"POST", "/api/v1/namespaces", "", "POST namespaces", true},
		{"GET", "/api/v1/namespaces/ns", "", "GET namespaces", true},
		{"PUT", "/api/v1/namespaces/ns/status", "", "PUT namespaces/status", true},
		{"PATCH", "/apis/apps/v1/namespaces/ns/deployments/d/status", "application/merge-patch+json", "PATCH deployments/status", true},
		{"PATCH", "/apis/apps/v1/namespaces/ns/deployments/d", "application/apply-patch+yaml", "APPLY deployments", true},
		{"DELETE", "/apis/batch/v1/namespaces/ns/jobs/j", "", "DELETE jobs", true},
		{"DELETE", "/apis/batch/v1/namespaces/ns/jobs", "", "DELETECOLLECTION jobs", true},
		{"GET", "/apis/external-secrets.io/v1/clustersecretstores/s", "", "GET clustersecretstores", true},
		{"GET", "/metrics", "", "", false},
		{"GET", "/apis/apps/v1", "", "", false},
	}
	for _, tt := range tests {
		u, err := url.Parse(tt.path)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := requestKey(tt.method, u, tt.contentType)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s %s = %q, %v; want %q, %v", tt.method, tt.path, got, ok, tt.want, tt.ok)
		}
	}
}

func TestRequests(t *testing.T) {
	f, err := ParseFamilies(strings.NewReader(`# TYPE apiserver_request_total counter
apiserver_request_total{code="200",resource="secrets",subresource="",verb="GET"} 5
apiserver_request_total{code="404",resource="secrets",subresource="",verb="GET"} 1
apiserver_request_total{code="200",resource="deployments",subresource="status",verb="PATCH"} 2
apiserver_request_total{code="200",resource="pods",subresource="",verb="WATCH"} 9
apiserver_request_total{code="200",resource="",subresource="",verb="GET"} 30
`))
	if err != nil {
		t.Fatal(err)
	}
	api := APIServerRequests(f)
	want := Requests{"GET secrets": 6, "PATCH deployments/status": 2}
	if len(api) != len(want) || api["GET secrets"] != 6 || api["PATCH deployments/status"] != 2 {
		t.Fatalf("APIServerRequests = %v, want %v (codes summed, watches and non-resource paths left out)", api, want)
	}
	if api.Mutating() != 2 || api.Total() != 8 {
		t.Errorf("mutating %v, total %v; want 2, 8", api.Mutating(), api.Total())
	}
	rest := api.Minus(Requests{"PATCH deployments/status": 2, "GET secrets": 1})
	if len(rest) != 1 || rest["GET secrets"] != 5 {
		t.Errorf("Minus = %v, want only GET secrets 5", rest)
	}
	if m := api.OnlyMutating(); len(m) != 1 || m["PATCH deployments/status"] != 2 {
		t.Errorf("OnlyMutating = %v", m)
	}
}
