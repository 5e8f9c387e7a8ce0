// Package tempest runs OpenStack's own API test suite (Tempest, with the
// service plugins Debian ships) against a deployment a conformance suite
// started from exactly what an operator rendered. It writes a tempest.conf
// for that deployment (Cloud), runs the selected tests with the Tempest of
// the Debian release the services come from (in its root filesystem when
// that is not the machine's), and reads every test's result from Tempest's
// output (Report). The tests that use it live in the conformance suites,
// which already hold the deployment, Keystone, MariaDB and the S3 server.
package tempest

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Cloud is the deployment Tempest tests: Keystone's admin (Tempest creates
// its own projects and users with it) and the services that exist.
type Cloud struct {
	// IdentityURL is Keystone's v3 endpoint (http://host:port/v3).
	IdentityURL string
	Region      string
	// AdminUser, AdminPassword and AdminProject are the bootstrap admin's
	// credentials, in the Default domain.
	AdminUser, AdminPassword, AdminProject string
	// Image, when set, is a Glance in the catalog (service type image).
	Image *Image
	// KeyManager, when set, is a Barbican in the catalog (service type
	// key-manager).
	KeyManager *KeyManager
	// EnforceScope reports that the services enforce token scope (their
	// oslo.policy does): the plugins then run their secure-RBAC tests.
	EnforceScope bool
}

// KeyManager is what the operator configured for a Barbican.
type KeyManager struct {
	// MultipleSecretStores reports enable_multiple_secret_stores (the
	// secret-stores API).
	MultipleSecretStores bool
}

// Image is what the operator configured for a Glance.
type Image struct {
	// Import reports enabled import methods (enabled_import_methods is not
	// empty); Tempest asks the server which ones.
	Import bool
	// Cache reports the image cache (image_cache_dir set).
	Cache bool
	// HTTPImage and HTTPQcow2Image are URLs glance-api can download an
	// image from (web-download; any bytes, and a qcow2 image for a Tempest
	// whose Glance checks the data against disk_format); "" leaves
	// Tempest's defaults.
	HTTPImage, HTTPQcow2Image string
}

// Conf is the tempest.conf of the cloud; dir is the workspace (logs and
// locks go there).
func (c Cloud) Conf(dir string) string {
	var b strings.Builder
	section := func(name string, kv ...string) {
		fmt.Fprintf(&b, "[%s]\n", name)
		for i := 0; i+1 < len(kv); i += 2 {
			fmt.Fprintf(&b, "%s = %s\n", kv[i], kv[i+1])
		}
		b.WriteString("\n")
	}
	section("DEFAULT", "log_dir", filepath.Join(dir, "logs"), "log_file", "tempest.log")
	section("oslo_concurrency", "lock_path", filepath.Join(dir, "lock"))
	section("auth", "admin_username", c.AdminUser, "admin_password", c.AdminPassword,
		"admin_project_name", c.AdminProject, "admin_domain_name", "Default",
		"use_dynamic_credentials", "true")
	section("identity", "uri_v3", c.IdentityURL, "auth_version", "v3", "region", c.Region)
	section("identity-feature-enabled", "api_v2", "false")
	section("service_available", "glance", fmt.Sprint(c.Image != nil), "barbican", fmt.Sprint(c.KeyManager != nil),
		"nova", "false", "cinder", "false", "neutron", "false", "swift", "false", "horizon", "false")
	if i := c.Image; i != nil {
		image := []string{"region", c.Region, "image_caching_enabled", fmt.Sprint(i.Cache)}
		if i.HTTPImage != "" {
			image = append(image, "http_image", i.HTTPImage)
		}
		if i.HTTPQcow2Image != "" {
			image = append(image, "http_qcow2_image", i.HTTPQcow2Image)
		}
		section("image", image...)
		section("image-feature-enabled", "api_v1", "false", "api_v2", "true",
			"import_image", fmt.Sprint(i.Import), "os_glance_reserved", "true")
	}
	section("enforce_scope", "glance", fmt.Sprint(c.EnforceScope && c.Image != nil),
		"barbican", fmt.Sprint(c.EnforceScope && c.KeyManager != nil))
	if k := c.KeyManager; k != nil {
		// The plugin runs the microversioned tests (secret consumers, 1.1)
		// only inside a declared range.
		section("key_manager", "min_microversion", "1.0", "max_microversion", "latest")
		section("barbican_tempest", "enable_multiple_secret_stores", fmt.Sprint(k.MultipleSecretStores))
	}
	return b.String()
}
