// Package barbican is the e2e suite of the Barbican operator on a local
// control plane (see e2e/suite): the chart installed with helm, the
// operator on the chart's ServiceAccount token, the real ESO, a real
// MariaDB behind mariadb-operator stand-ins, a real OpenBao-compatible
// server (Vault, testsupport/openbao) per test, and the operator's pods
// (db-sync Jobs, barbican-api) run as processes by the pod runner inside
// the root filesystem of Debian sid (barbican 23, hack/rootfs.sh): the
// machine's bookworm barbican has no barbican.wsgi.api, which the
// operator's command names.
package barbican
