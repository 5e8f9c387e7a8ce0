package glance_test

import (
	"os"
	"testing"

	"github.com/c5c3/openstack-operators/e2e/localrun"
	"github.com/c5c3/openstack-operators/e2e/suite"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// env is what the suite shares (see suite.Env), with the S3 server.
var env suite.Env

func TestMain(m *testing.M) {
	os.Exit(suite.Main(m, suite.Options{
		Cluster: "e2e-glance", Chart: "glance-operator", Release: "glance", OperatorNamespace: "glance-system",
		AddToScheme: glancev1.AddToScheme, S3: true,
		Profiles: func(root string) []localrun.Profile { return []localrun.Profile{localrun.Glance(root)} },
	}, &env))
}
