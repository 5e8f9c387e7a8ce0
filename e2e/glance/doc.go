// Package glance is the e2e suite of the Glance operator on a local
// control plane (see e2e/suite): the chart installed with helm, the
// operator on the chart's ServiceAccount token, the real ESO, a real
// MariaDB behind mariadb-operator stand-ins, a real S3 server, and the
// operator's pods (db-sync Jobs, glance-api) run as processes by the pod
// runner. docs/glance/e2e.md lists the scenarios.
package glance
