// Package glance is the conformance suite of the Glance operator: it proves
// that what the operator writes (config ConfigMap, backends Secret, env and
// argv of the Deployment and the db-sync Job) starts the real OpenStack
// Glance API against a real MariaDB, Keystone and a real S3 server, and
// that images stored through it land in the S3 buckets the GlanceBackends
// name. Read docs/glance/conformance.md for what is real, what is mapped
// and which releases it ran against.
package glance
