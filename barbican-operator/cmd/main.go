// Command barbican-operator runs the Barbican and BarbicanSecretStore controllers and their webhooks.
package main

import (
	"github.com/c5c3/openstack-operators/barbican-operator/internal/manager"
	cmanager "github.com/c5c3/openstack-operators/common/manager"
)

func main() { cmanager.Main(manager.Operator) }
