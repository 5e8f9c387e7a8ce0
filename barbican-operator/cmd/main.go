// Command barbican-operator runs the Barbican and BarbicanSecretStore controllers and their webhooks.
package main

import (
	"github.com/c5c3/openstack-operators/barbican-operator/internal/manager"
	"github.com/c5c3/openstack-operators/common/framework/bootstrap"
)

func main() { bootstrap.Main(manager.Operator) }
