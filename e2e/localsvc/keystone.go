package localsvc

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/c5c3/openstack-operators/common/lib/workload"
)

// Keystone is Debian's Keystone under uwsgi on 127.0.0.1, bootstrapped with
// an admin user and one region whose identity endpoints (public and
// internal) point at itself.
type Keystone struct {
	// URL is the identity v3 endpoint, http://127.0.0.1:<port>/v3.
	URL    string
	Region string
	dir    string
	proc   *Proc
	client *http.Client
}

const (
	keystoneAdmin    = "admin"
	keystoneAdminPwd = "keystone-admin-pw"
	keystoneDBUser   = "keystone"
	keystoneDBPwd    = "keystone-db-pw"
)

// StartKeystone creates the keystone schema on db, runs keystone-manage's
// set-up and starts the public WSGI app. Passwords are hashed with bcrypt's
// lowest cost (password_hash_rounds 4, keystone's default 12): every user
// Tempest creates and every password authentication costs one hash, 0.2 CPU
// seconds at 12 on this machine; at 4 the sid Glance Tempest run took 267
// CPU seconds instead of 398. The suites test the services and the
// operators, not the cost of keystone's hashing.
func StartKeystone(db *MariaDB) (*Keystone, error) {
	dir, err := os.MkdirTemp("", "ks")
	if err != nil {
		return nil, err
	}
	port, err := FreePort()
	if err != nil {
		return nil, err
	}
	k := &Keystone{URL: fmt.Sprintf("http://127.0.0.1:%d/v3", port), Region: "RegionOne", dir: dir,
		client: &http.Client{Timeout: 30 * time.Second}}
	if err := db.CreateSchema("keystone", keystoneDBUser, keystoneDBPwd); err != nil {
		return nil, err
	}
	for _, d := range []string{"etc", "fernet-keys", "credential-keys", "lock"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o700); err != nil {
			return nil, err
		}
	}
	conf := fmt.Sprintf(`[DEFAULT]
use_stderr = true
[database]
connection = mysql+pymysql://%s:%s@%s/keystone?charset=utf8mb4
[fernet_tokens]
key_repository = %[4]s/fernet-keys
[fernet_receipts]
key_repository = %[4]s/fernet-keys
[credential]
key_repository = %[4]s/credential-keys
[token]
provider = fernet
[identity]
password_hash_rounds = 4
[cache]
enabled = true
backend = dogpile.cache.memory
[oslo_concurrency]
lock_path = %[4]s/lock
`, keystoneDBUser, keystoneDBPwd, db.Addr(), dir)
	if err := os.WriteFile(filepath.Join(dir, "etc", "keystone.conf"), []byte(conf), 0o600); err != nil {
		return nil, err
	}
	km := []string{"keystone-manage", "--config-file", filepath.Join(dir, "etc", "keystone.conf")}
	steps := [][]string{
		{"fernet_setup", "--keystone-user", "root", "--keystone-group", "root"},
		{"credential_setup", "--keystone-user", "root", "--keystone-group", "root"},
		{"db_sync"},
		{"bootstrap", "--bootstrap-password", keystoneAdminPwd, "--bootstrap-username", keystoneAdmin,
			"--bootstrap-project-name", "admin", "--bootstrap-role-name", "admin",
			"--bootstrap-service-name", "keystone", "--bootstrap-region-id", k.Region,
			"--bootstrap-public-url", k.URL, "--bootstrap-internal-url", k.URL},
	}
	for _, s := range steps {
		code, log, err := Run(ProcSpec{Name: "keystone-manage-" + s[0], Dir: dir, Argv: append(append([]string{}, km...), s...), Env: BaseEnv(dir)}, 3*time.Minute)
		if err != nil || code != 0 {
			return nil, exitError("keystone-manage "+s[0], code, err, log)
		}
	}
	env := append(BaseEnv(dir), "OS_KEYSTONE_CONFIG_DIR="+filepath.Join(dir, "etc"))
	// The router's flags as the operators render them (workload.CloseFlags:
	// it closes after requests with a body without saying so otherwise).
	argv := append([]string{"uwsgi", "--plugin", "http,python3", "--http", "127.0.0.1:" + strconv.Itoa(port), "--http-keepalive"},
		workload.CloseFlags...)
	argv = append(argv, "--wsgi-file", "/usr/bin/keystone-wsgi-public", "--master", "--lazy-apps", "--need-app",
		"--processes", "1", "--threads", "4", "--die-on-term", "--skip-atexit", "--buffer-size", "65535")
	k.proc, err = Start(ProcSpec{Name: "keystone", Dir: dir, Env: env, Argv: argv})
	if err != nil {
		return nil, err
	}
	if err := WaitHTTP(k.proc, k.URL, http.StatusOK, 2*time.Minute); err != nil {
		_ = k.Stop()
		return nil, err
	}
	return k, nil
}

// Stop stops Keystone and removes its directory.
func (k *Keystone) Stop() error {
	err := k.proc.Stop(15 * time.Second)
	_ = os.RemoveAll(k.dir)
	return err
}

// Token issues a project-scoped token for a user of the Default domain.
func (k *Keystone) Token(user, password, project string) (string, error) {
	body := map[string]any{"auth": map[string]any{
		"identity": map[string]any{"methods": []string{"password"}, "password": map[string]any{
			"user": map[string]any{"name": user, "domain": map[string]any{"id": "default"}, "password": password}}},
		"scope": map[string]any{"project": map[string]any{"name": project, "domain": map[string]any{"id": "default"}}},
	}}
	resp, err := k.call(http.MethodPost, "/auth/tokens", "", body, http.StatusCreated)
	if err != nil {
		return "", err
	}
	tok := resp.Header.Get("X-Subject-Token")
	if tok == "" {
		return "", errors.New("keystone issued no X-Subject-Token")
	}
	return tok, nil
}

// ServiceUser creates (once) the project, the user with password and the
// role, and grants the role to the user on the project: what a deployment
// tool does for an OpenStack service user.
func (k *Keystone) ServiceUser(project, user, password, role string) error {
	admin, err := k.AdminToken()
	if err != nil {
		return err
	}
	projectID, err := k.ensure(admin, "projects", project, map[string]any{"name": project, "domain_id": "default"})
	if err != nil {
		return err
	}
	userID, err := k.ensure(admin, "users", user, map[string]any{"name": user, "domain_id": "default", "password": password, "default_project_id": projectID})
	if err != nil {
		return err
	}
	roleID, err := k.ensure(admin, "roles", role, map[string]any{"name": role})
	if err != nil {
		return err
	}
	_, err = k.call(http.MethodPut, fmt.Sprintf("/projects/%s/users/%s/roles/%s", projectID, userID, roleID), admin, nil, http.StatusNoContent)
	return err
}

// ensure returns the id of the named collection member, creating it if absent.
func (k *Keystone) ensure(token, collection, name string, fields map[string]any) (string, error) {
	resp, err := k.call(http.MethodGet, "/"+collection+"?name="+name, token, nil, http.StatusOK)
	if err != nil {
		return "", err
	}
	var list map[string]json.RawMessage
	if err := decode(resp, &list); err != nil {
		return "", err
	}
	var items []struct{ ID string }
	if err := json.Unmarshal(list[collection], &items); err != nil {
		return "", fmt.Errorf("keystone %s list: %w", collection, err)
	}
	if len(items) > 0 {
		return items[0].ID, nil
	}
	singular := collection[:len(collection)-1]
	resp, err = k.call(http.MethodPost, "/"+collection, token, map[string]any{singular: fields}, http.StatusCreated)
	if err != nil {
		return "", err
	}
	var created map[string]struct{ ID string }
	if err := decode(resp, &created); err != nil {
		return "", err
	}
	return created[singular].ID, nil
}

func (k *Keystone) call(method, path, token string, body any, want int) (*http.Response, error) {
	var r io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, k.URL+path, r) //nolint:noctx // loopback call with a client timeout
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("X-Auth-Token", token)
	}
	resp, err := k.client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != want {
		b, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		return nil, fmt.Errorf("keystone %s %s: %d, want %d: %s", method, path, resp.StatusCode, want, b)
	}
	return resp, nil
}

func decode(resp *http.Response, v any) error {
	defer func() { _ = resp.Body.Close() }()
	return json.NewDecoder(resp.Body).Decode(v)
}

// AdminToken issues a token for the bootstrap admin on the admin project.
func (k *Keystone) AdminToken() (string, error) {
	return k.Token(keystoneAdmin, keystoneAdminPwd, "admin")
}

// Endpoint registers the service name of type typ (once) with public and
// internal endpoints at url in the region, as a deployment tool does, so
// that clients find it in the catalog; endpoints that name another url are
// moved to url (a suite's next deployment of the service).
func (k *Keystone) Endpoint(typ, name, url string) error {
	admin, err := k.AdminToken()
	if err != nil {
		return err
	}
	serviceID, err := k.ensure(admin, "services", name, map[string]any{"name": name, "type": typ, "enabled": true})
	if err != nil {
		return err
	}
	resp, err := k.call(http.MethodGet, "/endpoints?service_id="+serviceID, admin, nil, http.StatusOK)
	if err != nil {
		return err
	}
	var list struct {
		Endpoints []struct{ ID, URL, Interface string }
	}
	if err := decode(resp, &list); err != nil {
		return err
	}
	for _, iface := range []string{"public", "internal"} {
		i := slices.IndexFunc(list.Endpoints, func(e struct{ ID, URL, Interface string }) bool { return e.Interface == iface })
		switch {
		case i < 0:
			resp, err = k.call(http.MethodPost, "/endpoints", admin, map[string]any{"endpoint": map[string]any{
				"service_id": serviceID, "interface": iface, "region_id": k.Region, "url": url}}, http.StatusCreated)
		case list.Endpoints[i].URL != url:
			resp, err = k.call(http.MethodPatch, "/endpoints/"+list.Endpoints[i].ID, admin,
				map[string]any{"endpoint": map[string]any{"url": url}}, http.StatusOK)
		default:
			continue
		}
		if err != nil {
			return err
		}
		_ = resp.Body.Close()
	}
	return nil
}

// AdminCredentials are the bootstrap admin's user name, password and
// project (Default domain): what a test suite that creates its own
// projects and users (Tempest) is given.
func (k *Keystone) AdminCredentials() (user, password, project string) {
	return keystoneAdmin, keystoneAdminPwd, "admin"
}
