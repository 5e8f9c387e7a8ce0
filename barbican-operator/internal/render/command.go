package render

import (
	barbicanv1 "github.com/c5c3/openstack-operators/barbican-operator/api/v1alpha1"
	"github.com/c5c3/openstack-operators/common/api/serviceapi"
	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// WSGIModule is the WSGI application uwsgi loads; it reads barbican.conf and
// the paste file from ConfigDir, so no --wsgi-file, --pyargv or
// --config-file is passed.
const WSGIModule = "barbican.wsgi.api:application"

// Argv is the barbican-api container's command line: uwsgi on 9311 loading
// WSGIModule, tuned by spec.apiServer.uwsgi, ending with the shared shutdown
// flags. The keep-alive timeout is --http-keepalive=N, the spelling uwsgi
// accepts.
func Argv(b *barbicanv1.Barbican) []string {
	return workload.UWSGICommand(workload.UWSGIOptions{Port: barbicanv1.APIPort, Module: WSGIModule, Spec: uwsgiSpec(b)})
}

// uwsgiSpec is spec.apiServer.uwsgi, nil when unset (the defaults apply).
func uwsgiSpec(b *barbicanv1.Barbican) *serviceapi.UWSGISpec {
	if b.Spec.APIServer == nil {
		return nil
	}
	return b.Spec.APIServer.UWSGI
}
