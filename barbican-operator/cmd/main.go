// Command barbican-operator runs the Barbican and BarbicanSecretStore controllers and their webhooks.
package main

import (
	barbican "github.com/c5c3/openstack-operators/barbican-operator"
	"github.com/c5c3/openstack-operators/common/framework/bootstrap"
)

func main() { bootstrap.Main(barbican.Operator) }
