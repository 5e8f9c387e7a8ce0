package localsvc

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/c5c3/openstack-operators/testsupport/testenv"
)

// S3 is a real S3 server on 127.0.0.1: versitygw (built by hack/tools.sh
// from the Go module proxy) serving S3 over a directory, with one root
// account. It is what Glance's S3 stores talk to in the suites.
type S3 struct {
	Port                 int
	AccessKey, SecretKey string
	// Region is the server's region; clients sign for it.
	Region string
	proc   *Proc
	dir    string
	client *s3.Client
}

// S3Options select the server's port and root account; zero values take a
// free port and the suite's account.
type S3Options struct {
	Port                 int
	AccessKey, SecretKey string
}

// StartS3 starts versitygw's posix backend over a fresh directory.
func StartS3() (*S3, error) { return StartS3With(S3Options{}) }

// StartS3With is StartS3 with o.
func StartS3With(o S3Options) (*S3, error) {
	bin, err := testenv.Tool("versitygw")
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "s3")
	if err != nil {
		return nil, err
	}
	port := o.Port
	if port == 0 {
		if port, err = FreePort(); err != nil {
			return nil, err
		}
	}
	data, meta := filepath.Join(dir, "data"), filepath.Join(dir, "meta")
	for _, d := range []string{data, meta} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return nil, err
		}
	}
	srv := &S3{Port: port, AccessKey: cmp.Or(o.AccessKey, "AKIALOCALS3"), SecretKey: cmp.Or(o.SecretKey, "local-s3-secret/key+1"), Region: "us-east-1", dir: dir}
	env := append(BaseEnv(dir), "ROOT_ACCESS_KEY="+srv.AccessKey, "ROOT_SECRET_KEY="+srv.SecretKey, "VGW_REGION="+srv.Region)
	// Object metadata in a sidecar directory: the suites' temporary
	// directories may not hold user xattrs.
	argv := []string{bin, "--port", "127.0.0.1:" + strconv.Itoa(port), "posix", "--sidecar", meta, data}
	if srv.proc, err = Start(ProcSpec{Name: "versitygw", Dir: dir, Argv: argv, Env: env}); err != nil {
		return nil, err
	}
	srv.client = s3.New(s3.Options{
		BaseEndpoint: aws.String(srv.URL()), Region: srv.Region, UsePathStyle: true,
		Credentials: credentials.NewStaticCredentialsProvider(srv.AccessKey, srv.SecretKey, ""),
	})
	if err := WaitTCP(srv.proc, "127.0.0.1:"+strconv.Itoa(port), 30*time.Second); err != nil {
		_ = srv.Stop()
		return nil, err
	}
	return srv, nil
}

// URL is the endpoint, http://127.0.0.1:<port>.
func (s *S3) URL() string { return "http://127.0.0.1:" + strconv.Itoa(s.Port) }

// CreateBucket creates a bucket.
func (s *S3) CreateBucket(ctx context.Context, name string) error {
	_, err := s.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(name)})
	return err
}

// Keys lists the object keys of a bucket.
func (s *S3) Keys(ctx context.Context, bucket string) ([]string, error) {
	out, err := s.client.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: aws.String(bucket)})
	if err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(out.Contents))
	for _, o := range out.Contents {
		keys = append(keys, aws.ToString(o.Key))
	}
	return keys, nil
}

// Put stores an object.
func (s *S3) Put(ctx context.Context, bucket, key string, body []byte) error {
	_, err := s.client.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(body)})
	return err
}

// Get reads an object.
func (s *S3) Get(ctx context.Context, bucket, key string) ([]byte, error) {
	out, err := s.client.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	if err != nil {
		return nil, err
	}
	defer func() { _ = out.Body.Close() }()
	return io.ReadAll(out.Body)
}

// Delete removes an object.
func (s *S3) Delete(ctx context.Context, bucket, key string) error {
	_, err := s.client.DeleteObject(ctx, &s3.DeleteObjectInput{Bucket: aws.String(bucket), Key: aws.String(key)})
	return err
}

// Stop stops the server and removes its directory.
func (s *S3) Stop() error {
	err := s.proc.Stop(10 * time.Second)
	if rmErr := os.RemoveAll(s.dir); rmErr != nil {
		err = errors.Join(err, fmt.Errorf("removing %s: %w", s.dir, rmErr))
	}
	return err
}
