// Package localsvc starts real servers from Debian's packages (MariaDB,
// memcached, Keystone) and real containers' commands as plain processes on
// loopback, for the conformance and e2e suites. Every process leads its own
// process group and dies with the test process; Stop drains it the way the
// kubelet does (SIGTERM, grace, SIGKILL). hack/debian.sh installs the
// packages.
package localsvc
