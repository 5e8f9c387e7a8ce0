package mariadb

import (
	"context"
	"fmt"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/c5c3/openstack-operators/common/framework/apply"
	"github.com/c5c3/openstack-operators/common/framework/conditions"
)

// Verdict is the outcome of one provisioning pass; Ready false carries the
// DatabaseReady reason and message to report.
type Verdict struct {
	Ready   bool
	Reason  string
	Message string
}

// Provision gates on the MariaDB cluster and ensures Database, User and Grant
// (no User/Grant under Dynamic credentials); brownfield is a no-op.
func Provision(ctx context.Context, c client.Client, o apply.Owner, r Request) (Verdict, error) {
	if !r.Database.Managed() {
		return Verdict{Ready: true}, nil
	}
	var cluster mariadbv1alpha1.MariaDB
	err := c.Get(ctx, client.ObjectKey{Namespace: r.Namespace, Name: r.Database.ClusterRef.Name}, &cluster)
	if apierrors.IsNotFound(err) {
		return Verdict{Reason: conditions.ReasonClusterNotReady, Message: fmt.Sprintf("MariaDB %s not found", r.Database.ClusterRef.Name)}, nil
	}
	if err != nil {
		return Verdict{}, fmt.Errorf("reading MariaDB %s: %w", r.Database.ClusterRef.Name, err)
	}
	if !cluster.IsReady() {
		return Verdict{Reason: conditions.ReasonClusterNotReady, Message: fmt.Sprintf("MariaDB %s is not Ready", cluster.Name)}, nil
	}
	db := BuildDatabase(r)
	if _, err := apply.Ensure(ctx, c, o, db, nil); err != nil {
		return Verdict{}, err
	}
	pending := []string{}
	if !db.IsReady() {
		pending = append(pending, "Database")
	}
	if !r.Database.Dynamic() {
		user, grant := BuildUser(r), BuildGrant(r)
		if _, err := apply.Ensure(ctx, c, o, user, nil); err != nil {
			return Verdict{}, err
		}
		if _, err := apply.Ensure(ctx, c, o, grant, nil); err != nil {
			return Verdict{}, err
		}
		if !user.IsReady() {
			pending = append(pending, "User")
		}
		if !grant.IsReady() {
			pending = append(pending, "Grant")
		}
	}
	if len(pending) > 0 {
		return Verdict{Reason: conditions.ReasonWaitingForDatabase, Message: fmt.Sprintf("waiting for %v %s to become Ready", pending, r.Name)}, nil
	}
	return Verdict{Ready: true}, nil
}
