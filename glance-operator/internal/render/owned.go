package render

import (
	"github.com/c5c3/openstack-operators/common/lib/extraconfig"
	"github.com/c5c3/openstack-operators/common/lib/osconfig"
)

// Owners and impacts shared by several owned keys.
const (
	ownerOperator   = "the operator"
	ownerBackends   = "the attached GlanceBackends"
	ownerImageCache = "spec.imageCache"
	ownerFiltering  = "spec.importFiltering"
	ownerPlugins    = "spec.importPlugins"
	impactCache     = "the cache would escape its volume bound, pruner and paste filter"
	impactFiltering = "web-download could reach hosts the operator's filter denies (in-cluster API, metadata service)"
	impactPlugins   = "import plugins would run outside the operator's validation"
)

// OwnedKeys are the glance-api.conf options the operator renders itself
// (glance-api.md §8.2). Rejected ones would bypass a guard (cache bound,
// import filter, validated plugins) before a condition could report them, so
// admission and rendering refuse them; the rest are honoured and reported.
var OwnedKeys = append(extraconfig.Registry{
	{Section: "DEFAULT", Key: "enabled_backends", Owner: ownerBackends, Impact: "stores may no longer match the backends Secret"},
	{Section: "DEFAULT", Key: "enabled_import_methods", Owner: ownerOperator, Impact: "import methods may differ from the operator's"},
	{Section: "DEFAULT", Key: "workers", Owner: "spec.apiServer.workers", Impact: "spec.apiServer.workers is ignored"},
	{Section: "DEFAULT", Key: "image_cache_dir", Owner: ownerImageCache, Impact: impactCache, Rejected: true},
	{Section: "DEFAULT", Key: "image_cache_driver", Owner: ownerImageCache, Impact: impactCache, Rejected: true},
	{Section: "DEFAULT", Key: "image_cache_max_size", Owner: ownerImageCache, Impact: impactCache, Rejected: true},
	{Section: "glance_store", Key: "default_backend", Owner: "the default GlanceBackend", Impact: "the default store may differ from spec.isDefault"},
	{Section: "os_glance_staging_store", Key: "filesystem_store_datadir", Owner: "spec.staging", Impact: "staging may leave its bounded volume"},
	{Section: "os_glance_tasks_store", Key: "filesystem_store_datadir", Owner: "spec.staging", Impact: "task work may leave its bounded volume"},
	{Section: "paste_deploy", Key: "flavor", Owner: ownerOperator, Impact: "the API may run without Keystone authentication"},
	{Section: "paste_deploy", Key: "config_file", Owner: ownerOperator, Impact: "spec.middleware and spec.imageCache may be ignored"},
	{Section: "import_filtering_opts", Key: "allowed_schemes", Owner: ownerFiltering, Impact: impactFiltering, Rejected: true},
	{Section: "import_filtering_opts", Key: "disallowed_schemes", Owner: ownerFiltering, Impact: impactFiltering, Rejected: true},
	{Section: "import_filtering_opts", Key: "allowed_hosts", Owner: ownerFiltering, Impact: impactFiltering, Rejected: true},
	{Section: "import_filtering_opts", Key: "disallowed_hosts", Owner: ownerFiltering, Impact: impactFiltering, Rejected: true},
	{Section: "import_filtering_opts", Key: "allowed_ports", Owner: ownerFiltering, Impact: impactFiltering, Rejected: true},
	{Section: "import_filtering_opts", Key: "disallowed_ports", Owner: ownerFiltering, Impact: impactFiltering, Rejected: true},
	{Section: "image_import_opts", Key: "image_import_plugins", Owner: ownerPlugins, Impact: impactPlugins, Rejected: true},
	{Section: "image_conversion", Key: "output_format", Owner: "spec.importPlugins.conversion", Impact: impactPlugins, Rejected: true},
	{Section: "inject_metadata_properties", Key: "inject", Owner: "spec.importPlugins.injectMetadata", Impact: impactPlugins, Rejected: true},
	{Section: "inject_metadata_properties", Key: "ignore_user_roles", Owner: "spec.importPlugins.injectMetadata", Impact: impactPlugins, Rejected: true},
}, osconfig.OwnedKeys("database")...)
