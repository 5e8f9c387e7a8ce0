// Package standins holds development stand-ins for the External Secrets
// Operator (ESO) and mariadb-operator. They are NOT those operators: they run
// no provider and no database. Each one only writes the Ready condition the
// real controller writes once its work is done, so that the OpenStack
// operators can be run ("make run") and tested on a local control plane that
// has the third-party CRDs but not their controllers.
package standins
