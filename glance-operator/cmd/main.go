// Command glance-operator runs the Glance and GlanceBackend controllers and their webhooks.
package main

import (
	"github.com/c5c3/openstack-operators/common/framework/bootstrap"
	glance "github.com/c5c3/openstack-operators/glance-operator"
)

func main() { bootstrap.Main(glance.Operator) }
