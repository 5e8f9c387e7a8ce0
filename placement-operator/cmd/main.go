// Command placement-operator runs the Placement controller and its webhooks.
package main

import (
	cmanager "github.com/c5c3/openstack-operators/common/manager"
	"github.com/c5c3/openstack-operators/placement-operator/internal/manager"
)

func main() { cmanager.Main(manager.Operator) }
