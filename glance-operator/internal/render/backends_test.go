package render_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/c5c3/openstack-operators/common/lib/ini"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/glance-operator/internal/render"
)

// twoBackends are given out of order: the output is sorted by name.
func twoBackends() []render.Backend {
	return []render.Backend{
		{
			Name: "minio", Default: true,
			S3: glancev1.S3Spec{
				Host: "http://minio.storage.svc:9000", Bucket: "images",
				CredentialsSecretRef: glancev1.CredentialsSecretRef{Name: "minio-creds"},
			},
			AccessKeyID: "AKIAMINIO", SecretAccessKey: "minio/secret+key",
		},
		{
			Name: "ceph-rgw",
			S3: glancev1.S3Spec{
				Host: "https://rgw.example.org", Bucket: "glance-images",
				CredentialsSecretRef: glancev1.CredentialsSecretRef{Name: "rgw-creds"},
				BucketURLFormat:      glancev1.BucketURLVirtual, Region: "eu-west-1", CreateBucketOnPut: true,
				LargeObjectSize:      new(resource.MustParse("1Gi")),
				LargeObjectChunkSize: new(resource.MustParse("10500000")), // 10.01 MiB rounds up to 11
			},
			AccessKeyID: "AKIARGW", SecretAccessKey: "rgw-secret",
			ExtraOptions: map[string]string{
				"s3_store_thread_pools": "20",
				"s3_store_cacert":       "/etc/ssl/certs/ca-certificates.crt",
				"s3_store_host":         "http://ignored.example.org", // typed keys win
			},
		},
	}
}

func TestBackendsConfGolden(t *testing.T) {
	conf, skipped, err := render.BackendsConf(twoBackends())
	if err != nil || skipped != nil {
		t.Fatalf("BackendsConf: skipped %v, err %v", skipped, err)
	}
	checkGolden(t, "two-backends."+render.KeyBackendsConf, conf, true)
	parsed, err := ini.Parse([]byte(conf))
	if err != nil {
		t.Fatal(err)
	}
	if got := parsed["ceph-rgw"]["s3_store_host"]; got != "https://rgw.example.org" {
		t.Errorf("extraOptions overrode a typed key: s3_store_host = %q", got)
	}
	if got := parsed["minio"]["s3_store_bucket_url_format"]; got != "path" {
		t.Errorf("unset bucketURLFormat rendered %q, want path", got)
	}
	for _, key := range []string{"s3_store_region_name", "s3_store_create_bucket_on_put", "s3_store_large_object_size", "s3_store_large_object_chunk_size"} {
		if _, ok := parsed["minio"][key]; ok {
			t.Errorf("unset %s rendered for minio", key)
		}
	}
}

func TestBackendsConfSkipsUnsafeBackends(t *testing.T) {
	const secret = "s3cr3t\r\nwith-newline"
	backends := twoBackends()
	backends[0].SecretAccessKey = secret // minio
	backends = append(backends,
		render.Backend{Name: "database", S3: backends[1].S3, AccessKeyID: "a", SecretAccessKey: "b"},
		render.Backend{Name: "quoted", S3: backends[1].S3, AccessKeyID: `"AKIAQUOTED"`, SecretAccessKey: "b"},
		render.Backend{Name: "badkey", S3: backends[1].S3, AccessKeyID: "a", SecretAccessKey: "b", ExtraOptions: map[string]string{"x=y": "1"}},
	)
	conf, skipped, err := render.BackendsConf(backends)
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(skipped)); !slices.Equal(got, []string{"badkey", "database", "minio", "quoted"}) {
		t.Fatalf("skipped = %v", skipped)
	}
	if !strings.Contains(skipped["minio"], "control character") || !strings.Contains(skipped["minio"], "s3_store_secret_key") {
		t.Errorf("reason %q should name the key and the control character", skipped["minio"])
	}
	for name, reason := range skipped {
		if strings.Contains(reason, "s3cr3t") || strings.Contains(reason, "AKIAQUOTED") {
			t.Errorf("reason for %s leaks the value: %q", name, reason)
		}
	}
	if strings.Contains(conf, "s3cr3t") || strings.Contains(conf, "[minio]") || strings.Contains(conf, "[database]") {
		t.Errorf("skipped backend rendered:\n%s", conf)
	}
	if !strings.Contains(conf, "[ceph-rgw]\n") {
		t.Errorf("healthy sibling not rendered:\n%s", conf)
	}
}

func TestBackendsConfRefusesDuplicates(t *testing.T) {
	b := twoBackends()
	if _, _, err := render.BackendsConf(append(b, b[0])); err == nil {
		t.Error("a backend given twice was rendered")
	}
	conf, skipped, err := render.BackendsConf(nil)
	if conf != "" || skipped != nil || err != nil {
		t.Errorf("no backends: %q %v %v", conf, skipped, err)
	}
}

func TestReservedBackendName(t *testing.T) {
	for name, want := range map[string]bool{
		"default": true, "DEFAULT": true, "Database": true, "keystone_authtoken": true, "glance_store": true,
		"paste_deploy": true, "oslo_policy": true, "os_glance_staging_store": true, "os_glance_tasks_store": true,
		"os_glance_foo": true, "os-glance-bar": true, "minio": false, "default-s3": false, "glance-store": false,
	} {
		if got := render.ReservedBackendName(name); got != want {
			t.Errorf("ReservedBackendName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestCeilMiB(t *testing.T) {
	for in, want := range map[string]int64{
		"1Mi": 1, "1048577": 2, "100Mi": 100, "1Gi": 1024, "5M": 5, "1G": 954, "10500000": 11, "0": 0,
	} {
		if got := render.CeilMiB(resource.MustParse(in)); got != want {
			t.Errorf("CeilMiB(%s) = %d, want %d", in, got, want)
		}
	}
}

func TestS3EgressPorts(t *testing.T) {
	cases := []struct {
		hosts []string
		want  []int32
	}{
		{nil, nil},
		{[]string{"https://s3.example.org"}, []int32{443}},
		{[]string{"http://minio:9000", "https://a.example", "HTTP://b.example", "https://c.example:443", "http://minio:9000/path"}, []int32{80, 443, 9000}},
		{[]string{"ftp://x.example", "not a url", "http://:8080", "https://x:0", "https://x:70000"}, nil},
		{[]string{"http://[fd00::1]:8333", "https://[fd00::2]"}, []int32{443, 8333}},
	}
	for _, tc := range cases {
		if got := render.S3EgressPorts(tc.hosts); !slices.Equal(got, tc.want) {
			t.Errorf("S3EgressPorts(%q) = %v, want %v", tc.hosts, got, tc.want)
		}
	}
}

func TestEnabledBackends(t *testing.T) {
	if got := render.EnabledBackends([]string{"a", "b"}); got != "a:s3,b:s3" {
		t.Errorf("EnabledBackends = %q", got)
	}
}
