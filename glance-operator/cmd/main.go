// Command glance-operator runs the Glance and GlanceBackend controllers and their webhooks.
package main

import (
	cmanager "github.com/c5c3/openstack-operators/common/manager"
	"github.com/c5c3/openstack-operators/glance-operator/internal/manager"
)

func main() { cmanager.Main(manager.Operator) }
