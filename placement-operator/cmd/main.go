// Command placement-operator runs the Placement controller and its webhooks.
package main

import (
	"github.com/c5c3/openstack-operators/common/framework/bootstrap"
	"github.com/c5c3/openstack-operators/placement-operator/internal/manager"
)

func main() { bootstrap.Main(manager.Operator) }
