// Package attach is what a service CR and the child CRs that attach to it by
// name (Glance's GlanceBackends, Barbican's BarbicanSecretStores) share: on
// the parent's side the aggregation of the attached, credential-ready
// children and the messages and events of the ones it skips; on the child's
// side the check that the parent's live Deployment mounts the child's
// section, and the Ready aggregate of the child's own conditions.
package attach
