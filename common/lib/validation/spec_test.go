package validation

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/c5c3/openstack-operators/common/api/serviceapi"
)

const digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestImage(t *testing.T) {
	p := field.NewPath("spec", "image")
	repo := "registry.example.org/openstack/placement"
	checkRules(t, []ruleCase{
		{name: "tag", got: Image(p, serviceapi.ImageSpec{Repository: repo, Tag: "2025.2"})},
		{name: "digest", got: Image(p, serviceapi.ImageSpec{Repository: repo, Digest: digest})},
		{name: "both", got: Image(p, serviceapi.ImageSpec{Repository: repo, Tag: "2025.2", Digest: digest}),
			want: []want{{field.ErrorTypeInvalid, "spec.image", []string{"exactly one of image.tag or image.digest"}}}},
		{name: "neither", got: Image(p, serviceapi.ImageSpec{Repository: repo}),
			want: []want{{field.ErrorTypeInvalid, "spec.image", []string{"exactly one of image.tag or image.digest"}}}},
	})
}

func TestDatabase(t *testing.T) {
	p := field.NewPath("spec", "database")
	ref := &serviceapi.LocalObjectRef{Name: "mariadb"}
	xor := want{field.ErrorTypeInvalid, "spec.database", []string{"exactly one of database.clusterRef or database.host"}}
	dyn := want{field.ErrorTypeInvalid, "spec.database.credentialsMode", []string{"Dynamic requires database.clusterRef"}}
	checkRules(t, []ruleCase{
		{name: "managed", got: Database(p, serviceapi.DatabaseSpec{ClusterRef: ref})},
		{name: "managed Dynamic", got: Database(p, serviceapi.DatabaseSpec{ClusterRef: ref, CredentialsMode: serviceapi.CredentialsDynamic})},
		{name: "brownfield", got: Database(p, serviceapi.DatabaseSpec{Host: "db.example.org"})},
		{name: "brownfield Static", got: Database(p, serviceapi.DatabaseSpec{Host: "db.example.org", CredentialsMode: serviceapi.CredentialsStatic})},
		{name: "both", got: Database(p, serviceapi.DatabaseSpec{ClusterRef: ref, Host: "db.example.org"}), want: []want{xor}},
		{name: "neither", got: Database(p, serviceapi.DatabaseSpec{}), want: []want{xor}},
		{name: "Dynamic brownfield", got: Database(p, serviceapi.DatabaseSpec{Host: "db.example.org", CredentialsMode: serviceapi.CredentialsDynamic}), want: []want{dyn}},
		{name: "Dynamic neither", got: Database(p, serviceapi.DatabaseSpec{CredentialsMode: serviceapi.CredentialsDynamic}), want: []want{xor, dyn}},
	})
}

func TestCache(t *testing.T) {
	p := field.NewPath("spec", "cache")
	xor := want{field.ErrorTypeInvalid, "spec.cache", []string{"exactly one of cache.clusterRef or cache.servers"}}
	checkRules(t, []ruleCase{
		{name: "clusterRef", got: Cache(p, serviceapi.CacheSpec{ClusterRef: &serviceapi.LocalObjectRef{Name: "memcached"}})},
		{name: "servers", got: Cache(p, serviceapi.CacheSpec{Servers: []string{"m1:11211", "m2:11211"}})},
		{name: "both", got: Cache(p, serviceapi.CacheSpec{ClusterRef: &serviceapi.LocalObjectRef{Name: "memcached"}, Servers: []string{"m1:11211"}}), want: []want{xor}},
		{name: "neither", got: Cache(p, serviceapi.CacheSpec{}), want: []want{xor}},
		{name: "empty servers list is neither", got: Cache(p, serviceapi.CacheSpec{Servers: []string{}}), want: []want{xor}},
		{name: "CR in clusterRef name", got: Cache(p, serviceapi.CacheSpec{ClusterRef: &serviceapi.LocalObjectRef{Name: "mem\rcached"}}),
			want: []want{{field.ErrorTypeInvalid, "spec.cache.clusterRef.name", []string{"CR or LF"}}}},
		{name: "LF in a server", got: Cache(p, serviceapi.CacheSpec{Servers: []string{"m1:11211", "m2:11211\n[x]"}}),
			want: []want{{field.ErrorTypeInvalid, "spec.cache.servers[1]", []string{"CR or LF"}}}},
	})
}

func TestKeystoneURL(t *testing.T) {
	p := field.NewPath("spec", "keystoneEndpoint")
	const path = "spec.keystoneEndpoint"
	checkRules(t, []ruleCase{
		{name: "https", got: KeystoneURL(p, "https://keystone.example.org/v3", true)},
		{name: "http with port", got: KeystoneURL(p, "http://keystone-api.openstack.svc:5000", true)},
		{name: "empty required", got: KeystoneURL(p, "", true), want: []want{{field.ErrorTypeRequired, path, nil}}},
		{name: "empty optional", got: KeystoneURL(p, "", false)},
		{name: "bad scheme", got: KeystoneURL(p, "ftp://keystone.example.org", false), want: []want{{field.ErrorTypeInvalid, path, []string{"scheme must be http or https"}}}},
		{name: "no scheme", got: KeystoneURL(p, "keystone.example.org:5000", true), want: []want{{field.ErrorTypeInvalid, path, []string{"scheme must be http or https"}}}},
		{name: "no host", got: KeystoneURL(p, "https:///v3", true), want: []want{{field.ErrorTypeInvalid, path, []string{"must include a host"}}}},
		{name: "port without host", got: KeystoneURL(p, "http://:5000/", true), want: []want{{field.ErrorTypeInvalid, path, []string{"must include a host"}}}},
		{name: "unparseable", got: KeystoneURL(p, "http://[::1", true), want: []want{{field.ErrorTypeInvalid, path, []string{"must be a valid URL"}}}},
		{name: "CR/LF", got: KeystoneURL(p, "https://keystone\n.example.org", true), want: []want{{field.ErrorTypeInvalid, path, []string{"must be a valid URL"}}}},
	})
}

func TestServiceUser(t *testing.T) {
	p := field.NewPath("spec", "serviceUser")
	good := serviceapi.ServiceUserSpec{Username: "placement", ProjectName: "service", UserDomainName: "Default", ProjectDomainName: "Default"}
	with := func(mut func(*serviceapi.ServiceUserSpec)) serviceapi.ServiceUserSpec { s := good; mut(&s); return s }
	crlf := func(path string) []want { return []want{{field.ErrorTypeInvalid, path, []string{"CR or LF"}}} }
	checkRules(t, []ruleCase{
		{name: "valid", got: ServiceUser(p, good)},
		{name: "username", got: ServiceUser(p, with(func(s *serviceapi.ServiceUserSpec) { s.Username = "a\nb" })), want: crlf("spec.serviceUser.username")},
		{name: "projectName", got: ServiceUser(p, with(func(s *serviceapi.ServiceUserSpec) { s.ProjectName = "a\rb" })), want: crlf("spec.serviceUser.projectName")},
		{name: "userDomainName", got: ServiceUser(p, with(func(s *serviceapi.ServiceUserSpec) { s.UserDomainName = "\n" })), want: crlf("spec.serviceUser.userDomainName")},
		{name: "projectDomainName", got: ServiceUser(p, with(func(s *serviceapi.ServiceUserSpec) { s.ProjectDomainName = "x\r\n" })), want: crlf("spec.serviceUser.projectDomainName")},
	})
}

func TestGateway(t *testing.T) {
	p := field.NewPath("spec", "gateway")
	checkRules(t, []ruleCase{
		{name: "nil", got: Gateway(p, nil)},
		{name: "valid", got: Gateway(p, &serviceapi.GatewaySpec{Hostname: "placement.example.org", ParentRef: serviceapi.GatewayParentRef{Name: "gw"}})},
		{name: "no hostname", got: Gateway(p, &serviceapi.GatewaySpec{ParentRef: serviceapi.GatewayParentRef{Name: "gw"}}),
			want: []want{{field.ErrorTypeRequired, "spec.gateway.hostname", nil}}},
		{name: "no parent name", got: Gateway(p, &serviceapi.GatewaySpec{Hostname: "placement.example.org"}),
			want: []want{{field.ErrorTypeRequired, "spec.gateway.parentRef.name", nil}}},
	})
}

func TestNetworkPolicy(t *testing.T) {
	p := field.NewPath("spec", "networkPolicy")
	checkRules(t, []ruleCase{
		{name: "nil", got: NetworkPolicy(p, nil)},
		{name: "one source", got: NetworkPolicy(p, &serviceapi.NetworkPolicySpec{Ingress: []serviceapi.NetworkPolicyIngressSource{{NamespaceSelector: &metav1.LabelSelector{}}}})},
		{name: "empty ingress", got: NetworkPolicy(p, &serviceapi.NetworkPolicySpec{}),
			want: []want{{field.ErrorTypeRequired, "spec.networkPolicy.ingress", []string{"block all traffic"}}}},
		{name: "source without namespaces", got: NetworkPolicy(p, &serviceapi.NetworkPolicySpec{Ingress: []serviceapi.NetworkPolicyIngressSource{
			{NamespaceSelector: &metav1.LabelSelector{}}, {PodSelector: &metav1.LabelSelector{}}}}),
			want: []want{{field.ErrorTypeRequired, "spec.networkPolicy.ingress[1].namespaceSelector", []string{"every namespace"}}}},
	})
}

func TestSecretStoreRef(t *testing.T) {
	p := field.NewPath("spec", "secretStoreRef")
	checkRules(t, []ruleCase{
		{name: "nil", got: SecretStoreRef(p, nil)},
		{name: "empty kind", got: SecretStoreRef(p, &serviceapi.SecretStoreRef{Name: "vault"})},
		{name: "ClusterSecretStore", got: SecretStoreRef(p, &serviceapi.SecretStoreRef{Kind: serviceapi.ClusterSecretStoreKind, Name: "vault"})},
		{name: "SecretStore", got: SecretStoreRef(p, &serviceapi.SecretStoreRef{Kind: serviceapi.SecretStoreKind, Name: "vault"})},
		{name: "no name", got: SecretStoreRef(p, &serviceapi.SecretStoreRef{Kind: serviceapi.SecretStoreKind}),
			want: []want{{field.ErrorTypeRequired, "spec.secretStoreRef.name", nil}}},
		{name: "unknown kind", got: SecretStoreRef(p, &serviceapi.SecretStoreRef{Kind: "Vault", Name: "vault"}),
			want: []want{{field.ErrorTypeNotSupported, "spec.secretStoreRef.kind", []string{"ClusterSecretStore", "SecretStore"}}}},
	})
}

func TestTargetClusterRef(t *testing.T) {
	p := field.NewPath("spec", "targetClusterRef")
	a, b := &serviceapi.TargetClusterRef{Name: "edge-1"}, &serviceapi.TargetClusterRef{Name: "edge-2"}
	immutable := func(was string) []want {
		return []want{{field.ErrorTypeInvalid, "spec.targetClusterRef", []string{"targetClusterRef is immutable", `(was "` + was + `")`}}}
	}
	checkRules(t, []ruleCase{
		{name: "create without ref", got: TargetClusterRef(p, nil, nil, false)},
		{name: "create with ref", got: TargetClusterRef(p, a, nil, false)},
		{name: "create with empty name", got: TargetClusterRef(p, &serviceapi.TargetClusterRef{}, nil, false),
			want: []want{{field.ErrorTypeRequired, "spec.targetClusterRef.name", nil}}},
		{name: "update unchanged", got: TargetClusterRef(p, a, &serviceapi.TargetClusterRef{Name: "edge-1"}, true)},
		{name: "update both nil", got: TargetClusterRef(p, nil, nil, true)},
		{name: "update renamed", got: TargetClusterRef(p, b, a, true), want: immutable("edge-1")},
		{name: "update added", got: TargetClusterRef(p, a, nil, true), want: immutable("")},
		{name: "update removed", got: TargetClusterRef(p, nil, a, true), want: immutable("edge-1")},
	})
}

func TestLogging(t *testing.T) {
	p := field.NewPath("spec", "logging")
	checkRules(t, []ruleCase{
		{name: "nil", got: Logging(p, nil)},
		{name: "empty", got: Logging(p, &serviceapi.LoggingSpec{})},
		{name: "valid", got: Logging(p, &serviceapi.LoggingSpec{Format: serviceapi.LogFormatJSON, Level: "WARNING",
			PerLoggerLevels: map[string]serviceapi.LogLevel{"sqlalchemy": "ERROR", "keystonemiddleware": "DEBUG"}})},
		{name: "bad format", got: Logging(p, &serviceapi.LoggingSpec{Format: "xml"}),
			want: []want{{field.ErrorTypeNotSupported, "spec.logging.format", []string{"text", "json"}}}},
		{name: "bad level", got: Logging(p, &serviceapi.LoggingSpec{Level: "TRACE"}),
			want: []want{{field.ErrorTypeNotSupported, "spec.logging.level", []string{"CRITICAL"}}}},
		{name: "lowercase level", got: Logging(p, &serviceapi.LoggingSpec{Level: "debug"}),
			want: []want{{field.ErrorTypeNotSupported, "spec.logging.level", nil}}},
		{name: "per-logger empty name", got: Logging(p, &serviceapi.LoggingSpec{PerLoggerLevels: map[string]serviceapi.LogLevel{"": "INFO"}}),
			want: []want{{field.ErrorTypeInvalid, "spec.logging.perLoggerLevels[]", []string{"must not be empty"}}}},
		{name: "per-logger CR/LF name", got: Logging(p, &serviceapi.LoggingSpec{PerLoggerLevels: map[string]serviceapi.LogLevel{"a\nb": "INFO"}}),
			want: []want{{field.ErrorTypeInvalid, "spec.logging.perLoggerLevels[a\nb]", []string{"CR or LF"}}}},
		{name: "per-logger bad level", got: Logging(p, &serviceapi.LoggingSpec{PerLoggerLevels: map[string]serviceapi.LogLevel{"oslo": "LOUD"}}),
			want: []want{{field.ErrorTypeNotSupported, "spec.logging.perLoggerLevels[oslo]", nil}}},
		{name: "per-logger errors sorted by name", got: Logging(p, &serviceapi.LoggingSpec{PerLoggerLevels: map[string]serviceapi.LogLevel{"z": "X", "a": "Y", "m": "INFO"}}),
			want: []want{{field.ErrorTypeNotSupported, "spec.logging.perLoggerLevels[a]", nil}, {field.ErrorTypeNotSupported, "spec.logging.perLoggerLevels[z]", nil}}},
	})
}
