package render

import (
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/workload"
	glancev1 "github.com/c5c3/openstack-operators/glance-operator/api/v1alpha1"
)

// httpFlags are always on: glance streams image bodies with chunked
// transfer encoding in both directions.
var httpFlags = []string{"--http-auto-chunked", "--http-chunked-input"}

// PyArgv is the one --pyargv value: both config roots for the WSGI shim.
const PyArgv = "--config-dir " + ConfigDir + " --config-dir " + BackendsDir

// Command is the glance-api container's command line: uwsgi from 2026.1,
// the eventlet glance-api server below it (or for an unparseable release).
// The uwsgi keep-alive timeout is rendered as --http-keepalive=N and the
// shared shutdown flags end the line, as for every uwsgi service.
func Command(g *glancev1.Glance) []string {
	if !UWSGIMode(g.Spec.OpenStackRelease) {
		return []string{"glance-api", "--config-dir", ConfigDir, "--config-dir", BackendsDir}
	}
	var u *serviceapi.UWSGISpec
	if g.Spec.APIServer != nil {
		u = g.Spec.APIServer.UWSGI
	}
	return workload.UWSGICommand(workload.UWSGIOptions{
		Port:      glancev1.APIPort,
		WSGIFile:  WSGIFile,
		Spec:      u,
		HTTPFlags: httpFlags,
		PyArgv:    PyArgv,
	})
}
