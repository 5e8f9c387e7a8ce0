// Command placement-operator runs the Placement controller and its webhooks.
package main

import (
	"github.com/c5c3/openstack-operators/common/framework/bootstrap"
	placement "github.com/c5c3/openstack-operators/placement-operator"
)

func main() { bootstrap.Main(placement.Operator) }
