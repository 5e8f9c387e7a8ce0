// Package standins holds development stand-ins for the External Secrets
// Operator (ESO) and mariadb-operator. They are NOT those operators: they run
// no secret provider. The ESO stand-ins and the MariaDB stand-in only write
// the Ready condition the real controller writes once its work is done. The
// Database, User and Grant stand-ins either do the same, or, given a real
// MariaDB server (SQLBacked), create and drop the schema, the account and
// the grant on it. With them the OpenStack operators run ("make run") and
// are tested on a local control plane that has the third-party CRDs but not
// their controllers.
package standins
