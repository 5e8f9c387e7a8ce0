package testenv

import "github.com/c5c3/openstack-operators/common/api/serviceapi"

// Digest is a well-formed image digest for tests.
const Digest = "sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

// ReleaseRefusal is a release change the release gate refuses on a CR
// installed at 2025.2.
type ReleaseRefusal struct {
	Name, Reason string
	// Digest: the CR was installed from a digest-pinned image (Digest).
	Digest bool
	// Mutate is the refused change.
	Mutate func(*serviceapi.ServiceSpec)
}

// ReleaseRefusals are the refusals every service's gate makes: a
// downgrade, a skipped release, and a digest-pinned image that did not move
// with the release (it would run the old code under the new release's name).
var ReleaseRefusals = []ReleaseRefusal{
	{Name: "downgrade", Reason: "DowngradeNotSupported", Mutate: func(s *serviceapi.ServiceSpec) {
		s.OpenStackRelease, s.Image.Tag, s.Image.Digest = "2025.1", "2025.1", ""
	}},
	{Name: "skip", Reason: "UpgradePathInvalid", Mutate: func(s *serviceapi.ServiceSpec) {
		s.OpenStackRelease, s.Image.Tag, s.Image.Digest = "2027.1", "2027.1", ""
	}},
	{Name: "unchanged-digest", Reason: "ImageReleaseMismatch", Digest: true, Mutate: func(s *serviceapi.ServiceSpec) {
		s.OpenStackRelease = "2026.1"
	}},
}
