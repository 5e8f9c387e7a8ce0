// Package barbican is the conformance suite of the Barbican operator: it
// proves that what the operator writes (config Secret, the Deployment's env
// and argv with the minted AppRole secret ID, the db-sync Job, the
// db-clean CronJob) starts the real OpenStack Key Manager API against a
// real MariaDB, Keystone and a real OpenBao-compatible server set up as a
// managed instance, and that secrets stored through it land in that
// server's KV v2 mount. Read docs/barbican/conformance.md for what is real,
// what is mapped and which releases it ran against.
package barbican
