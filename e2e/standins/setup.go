package standins

import (
	"fmt"
	"strings"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	"k8s.io/apimachinery/pkg/runtime"
	clientgoscheme "k8s.io/client-go/kubernetes/scheme"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// NewScheme knows the built-in kinds and mariadb-operator's; ESO kinds are
// unstructured and need no registration.
func NewScheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	if err := clientgoscheme.AddToScheme(s); err != nil {
		return nil, err
	}
	if err := mariadbv1alpha1.AddToScheme(s); err != nil {
		return nil, err
	}
	return s, nil
}

// StandIn is one stand-in controller.
type StandIn interface {
	reconcile.Reconciler
	SetupWithManager(ctrl.Manager) error
}

// All returns every stand-in, writing through c: ESO's and
// mariadb-operator's (see MariaDBOperator).
func All(c client.Client, db SQL) []StandIn {
	all := MariaDBOperator(c, db)
	for _, s := range NewSecretStores(c) {
		all = append(all, s)
	}
	return all
}

// MariaDBOperator returns the mariadb-operator stand-ins. With db set,
// Database, User and Grant objects are carried out on that real server,
// and MariaDBs follow its readiness when it has an address (ServedMariaDB);
// without, they are only marked Ready.
func MariaDBOperator(c client.Client, db SQL) []StandIn {
	if db != nil {
		var mariadb StandIn = NewMariaDB(c)
		if served, ok := db.(interface{ Addr() string }); ok {
			mariadb = &ServedMariaDB{Client: c, Addr: served.Addr()}
		}
		return []StandIn{mariadb, NewSQLDatabase(c, db), NewSQLUser(c, db), NewSQLGrant(c, db)}
	}
	return []StandIn{NewMariaDB(c), NewDatabase(c), NewUser(c), NewGrant(c)}
}

// SetupWithManager registers every stand-in with the manager's client; db
// as in MariaDBOperator.
func SetupWithManager(mgr ctrl.Manager, db SQL) error {
	return Setup(mgr, All(mgr.GetClient(), db))
}

// Setup registers the given stand-ins with the manager.
func Setup(mgr ctrl.Manager, standIns []StandIn) error {
	for _, r := range standIns {
		if err := r.SetupWithManager(mgr); err != nil {
			return fmt.Errorf("setting up stand-in: %w", err)
		}
	}
	return nil
}

// controllerName keeps the stand-ins recognisable in logs and metrics.
func controllerName(kind string) string {
	return strings.ToLower(kind) + "-standin"
}
