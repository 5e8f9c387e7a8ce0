package localsvc

import (
	"bytes"
	"crypto/rand"
	"os/exec"
	"slices"
	"testing"
)

// The S3 server stores what one client puts and another reads back: the
// Go SDK here, and boto3 (the client glance_store's S3 driver uses) in a
// Python process, both path style with SigV4.
func TestS3ServesGoAndBoto3Clients(t *testing.T) {
	srv, err := StartS3()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := srv.Stop(); err != nil {
			t.Error(err)
		}
	})
	ctx := t.Context()
	if err := srv.CreateBucket(ctx, "images"); err != nil {
		t.Fatal(err)
	}
	body := make([]byte, 3<<20)
	_, _ = rand.Read(body)
	if err := srv.Put(ctx, "images", "from-go", body); err != nil {
		t.Fatal(err)
	}
	script := `
import boto3, sys
from botocore.config import Config
c = boto3.client("s3", endpoint_url=sys.argv[1], aws_access_key_id=sys.argv[2], aws_secret_access_key=sys.argv[3],
                 region_name=sys.argv[4], config=Config(s3={"addressing_style": "path"}))
data = c.get_object(Bucket="images", Key="from-go")["Body"].read()
c.put_object(Bucket="images", Key="from-boto3", Body=data[::-1])
`
	out, err := exec.Command("python3", "-c", script, srv.URL(), srv.AccessKey, srv.SecretKey, srv.Region).CombinedOutput()
	if err != nil {
		t.Fatalf("boto3 against the server: %v\n%s", err, out)
	}
	keys, err := srv.Keys(ctx, "images")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(keys, []string{"from-boto3", "from-go"}) {
		t.Errorf("keys = %v", keys)
	}
	got, err := srv.Get(ctx, "images", "from-boto3")
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Clone(body)
	slices.Reverse(want)
	if !bytes.Equal(got, want) {
		t.Errorf("boto3 stored %d bytes that differ from the %d it read, reversed", len(got), len(want))
	}
}
