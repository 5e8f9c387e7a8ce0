package render

import (
	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
	"github.com/c5c3/openstack-operators/common/lib/osconfig"
)

// OwnedKeys are the placement.conf options the operator renders itself.
// Rejected ones would already have done their damage before a condition could
// report them, so admission refuses them.
var OwnedKeys = append(extraconfig.Registry{
	{Section: "api", Key: "auth_strategy", Owner: "the operator", Impact: "disabling Keystone authentication exposes the API unauthenticated", Rejected: true},
	{Section: "DEFAULT", Key: "auth_strategy", Owner: "the operator", Impact: "disabling Keystone authentication exposes the API unauthenticated", Rejected: true},
}, osconfig.OwnedKeys("placement_database")...)
