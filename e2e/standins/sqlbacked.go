package standins

import (
	"context"
	"fmt"
	"strings"
	"time"

	mariadbv1alpha1 "github.com/mariadb-operator/mariadb-operator/api/v1alpha1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/handler"
	"sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// SQL runs statements on a real MariaDB server (e2e/localsvc.MariaDB).
type SQL interface {
	Query(sql string) (string, error)
}

// SQLBacked plays mariadb-operator for Database, User or Grant objects on a
// real server: it creates the schema, the account (with the password of the
// referenced Secret, re-applied when the Secret changes) or the grant,
// reports Ready the way mariadb-operator does, and on deletion drops what it
// created unless cleanupPolicy is Skip. The MariaDB object the SQL objects
// name is not consulted: every one of them lands on the one server.
type SQLBacked[T client.Object] struct {
	Client client.Client
	DB     SQL
	Kind   string
	New    func() T
	// Conditions points at the object's status.conditions.
	Conditions func(T) *[]metav1.Condition
	// Create and Drop return the statements for the object.
	Create func(ctx context.Context, c client.Reader, obj T) (string, error)
	Drop   func(db SQL, obj T) error
	// Skip reports cleanupPolicy Skip.
	Skip func(obj T) bool
	// Watches adds watches that map to objects of the kind (User: Secrets).
	Watches func(b *ctrl.Builder, c client.Client) *ctrl.Builder
}

// Finalizer names match mariadb-operator's.
func (r *SQLBacked[T]) finalizer() string {
	return strings.ToLower(r.Kind) + ".k8s.mariadb.com/finalizer"
}

// Reconcile applies the object's SQL, or drops it on deletion.
func (r *SQLBacked[T]) Reconcile(ctx context.Context, req ctrl.Request) (ctrl.Result, error) {
	obj := r.New()
	if err := r.Client.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	if !obj.GetDeletionTimestamp().IsZero() {
		if !controllerutil.ContainsFinalizer(obj, r.finalizer()) {
			return ctrl.Result{}, nil
		}
		if !r.Skip(obj) {
			if err := r.Drop(r.DB, obj); err != nil {
				return ctrl.Result{}, fmt.Errorf("dropping %s %s: %w", r.Kind, req.NamespacedName, err)
			}
		}
		controllerutil.RemoveFinalizer(obj, r.finalizer())
		return ctrl.Result{}, r.Client.Update(ctx, obj)
	}
	if controllerutil.AddFinalizer(obj, r.finalizer()) {
		if err := r.Client.Update(ctx, obj); err != nil {
			return ctrl.Result{}, err
		}
	}
	stmt, err := r.Create(ctx, r.Client, obj)
	if err == nil {
		_, err = r.DB.Query(stmt)
	}
	cond := metav1.Condition{Type: ConditionReady, Status: metav1.ConditionTrue, Reason: mariadbv1alpha1.ConditionReasonCreated, Message: sqlMessage}
	if err != nil {
		cond = metav1.Condition{Type: ConditionReady, Status: metav1.ConditionFalse, Reason: "Failed", Message: err.Error()}
	}
	base := obj.DeepCopyObject().(client.Object)
	conds := r.Conditions(obj)
	if c := meta.FindStatusCondition(*conds, ConditionReady); c == nil || c.Status != cond.Status || c.Message != cond.Message {
		meta.SetStatusCondition(conds, cond)
		if perr := r.Client.Status().Patch(ctx, obj, client.MergeFrom(base)); perr != nil {
			return ctrl.Result{}, perr
		}
	}
	if err != nil {
		// As mariadb-operator does, a failed statement (a Grant whose User
		// is not there yet, a server restarting) is retried at a steady
		// interval, not with the growing backoff of an error: a Grant that
		// failed a dozen times while its User was being created would
		// otherwise wait minutes for its next try.
		log.FromContext(ctx).Info("statement failed, retrying", "kind", r.Kind, "error", err.Error())
		return ctrl.Result{RequeueAfter: RetryInterval}, nil
	}
	return ctrl.Result{}, nil
}

// RetryInterval is how soon a failed statement is tried again.
const RetryInterval = time.Second

// SetupWithManager watches the kind (and what Watches adds).
func (r *SQLBacked[T]) SetupWithManager(mgr ctrl.Manager) error {
	b := ctrl.NewControllerManagedBy(mgr).For(r.New()).Named(controllerName(r.Kind) + "-sql")
	if r.Watches != nil {
		b = r.Watches(b, mgr.GetClient())
	}
	return b.Complete(r)
}

// NewSQLDatabase creates and drops schemas.
func NewSQLDatabase(c client.Client, db SQL) *SQLBacked[*mariadbv1alpha1.Database] {
	return &SQLBacked[*mariadbv1alpha1.Database]{
		Client: c, DB: db, Kind: "Database",
		New:        func() *mariadbv1alpha1.Database { return &mariadbv1alpha1.Database{} },
		Conditions: func(o *mariadbv1alpha1.Database) *[]metav1.Condition { return &o.Status.Conditions },
		Create: func(_ context.Context, _ client.Reader, o *mariadbv1alpha1.Database) (string, error) {
			charset, collate := or(o.Spec.CharacterSet, "utf8"), or(o.Spec.Collate, "utf8_general_ci")
			return fmt.Sprintf("CREATE DATABASE IF NOT EXISTS %s CHARACTER SET %s COLLATE %s;",
				ident(o.DatabaseNameOrDefault()), ident(charset), ident(collate)), nil
		},
		Drop: func(db SQL, o *mariadbv1alpha1.Database) error {
			_, err := db.Query("DROP DATABASE IF EXISTS " + ident(o.DatabaseNameOrDefault()) + ";")
			return err
		},
		Skip: func(o *mariadbv1alpha1.Database) bool { return skip(o.Spec.CleanupPolicy) },
	}
}

// NewSQLUser creates accounts and keeps their password equal to the
// referenced Secret's.
func NewSQLUser(c client.Client, db SQL) *SQLBacked[*mariadbv1alpha1.User] {
	return &SQLBacked[*mariadbv1alpha1.User]{
		Client: c, DB: db, Kind: "User",
		New:        func() *mariadbv1alpha1.User { return &mariadbv1alpha1.User{} },
		Conditions: func(o *mariadbv1alpha1.User) *[]metav1.Condition { return &o.Status.Conditions },
		Create: func(ctx context.Context, c client.Reader, o *mariadbv1alpha1.User) (string, error) {
			ref := o.Spec.PasswordSecretKeyRef
			if ref == nil {
				return "", fmt.Errorf("user %s has no passwordSecretKeyRef", o.Name)
			}
			var s corev1.Secret
			if err := c.Get(ctx, client.ObjectKey{Namespace: o.Namespace, Name: ref.Name}, &s); err != nil {
				return "", err
			}
			pw, ok := s.Data[ref.Key]
			if !ok {
				return "", fmt.Errorf("secret %s has no key %q", ref.Name, ref.Key)
			}
			account := account(o.UsernameOrDefault(), o.HostnameOrDefault())
			return fmt.Sprintf("CREATE USER IF NOT EXISTS %s IDENTIFIED BY %s; ALTER USER %[1]s IDENTIFIED BY %[2]s;",
				account, literal(string(pw))), nil
		},
		Drop: func(db SQL, o *mariadbv1alpha1.User) error {
			_, err := db.Query("DROP USER IF EXISTS " + account(o.UsernameOrDefault(), o.HostnameOrDefault()) + ";")
			return err
		},
		Skip:    func(o *mariadbv1alpha1.User) bool { return skip(o.Spec.CleanupPolicy) },
		Watches: watchPasswordSecrets,
	}
}

// NewSQLGrant grants and revokes privileges.
func NewSQLGrant(c client.Client, db SQL) *SQLBacked[*mariadbv1alpha1.Grant] {
	target := func(o *mariadbv1alpha1.Grant) string {
		db, table := or(o.Spec.Database, "*"), or(o.Spec.Table, "*")
		q := func(s string) string {
			if s == "*" {
				return s
			}
			return ident(s)
		}
		return q(db) + "." + q(table)
	}
	return &SQLBacked[*mariadbv1alpha1.Grant]{
		Client: c, DB: db, Kind: "Grant",
		New:        func() *mariadbv1alpha1.Grant { return &mariadbv1alpha1.Grant{} },
		Conditions: func(o *mariadbv1alpha1.Grant) *[]metav1.Condition { return &o.Status.Conditions },
		Create: func(_ context.Context, _ client.Reader, o *mariadbv1alpha1.Grant) (string, error) {
			for _, p := range o.Spec.Privileges {
				if strings.ContainsAny(p, "`';") {
					return "", fmt.Errorf("privilege %q refused", p)
				}
			}
			stmt := fmt.Sprintf("GRANT %s ON %s TO %s", strings.Join(o.Spec.Privileges, ", "), target(o), account(o.Spec.Username, o.HostnameOrDefault()))
			if o.Spec.GrantOption {
				stmt += " WITH GRANT OPTION"
			}
			return stmt + ";", nil
		},
		Drop: func(db SQL, o *mariadbv1alpha1.Grant) error {
			// The account may be gone already (its User was deleted first),
			// and with it every grant.
			n, err := db.Query(fmt.Sprintf("SELECT COUNT(*) FROM mysql.user WHERE User = %s AND Host = %s", literal(o.Spec.Username), literal(o.HostnameOrDefault())))
			if err != nil || n == "0" {
				return err
			}
			_, err = db.Query(fmt.Sprintf("REVOKE %s ON %s FROM %s;", strings.Join(o.Spec.Privileges, ", "), target(o), account(o.Spec.Username, o.HostnameOrDefault())))
			return err
		},
		Skip: func(o *mariadbv1alpha1.Grant) bool { return skip(o.Spec.CleanupPolicy) },
	}
}

// watchPasswordSecrets requeues the Users of a namespace that reference a
// changed Secret, so a rotated password reaches the server.
func watchPasswordSecrets(b *ctrl.Builder, c client.Client) *ctrl.Builder {
	return b.Watches(&corev1.Secret{}, handler.EnqueueRequestsFromMapFunc(func(ctx context.Context, obj client.Object) []reconcile.Request {
		var users mariadbv1alpha1.UserList
		if err := c.List(ctx, &users, client.InNamespace(obj.GetNamespace())); err != nil {
			return nil
		}
		var out []reconcile.Request
		for _, u := range users.Items {
			if ref := u.Spec.PasswordSecretKeyRef; ref != nil && ref.Name == obj.GetName() {
				out = append(out, reconcile.Request{NamespacedName: client.ObjectKeyFromObject(&u)})
			}
		}
		return out
	}))
}

func skip(p *mariadbv1alpha1.CleanupPolicy) bool {
	return p != nil && *p == mariadbv1alpha1.CleanupPolicySkip
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ident quotes an SQL identifier.
func ident(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// literal quotes an SQL string.
func literal(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func account(user, host string) string { return literal(user) + "@" + literal(host) }
