// Package linkcheck holds one test: no operator binary links test support
// (this module's packages, an operator's internal/fixture, the testing
// package, httptest or envtest). The operator modules require testsupport
// for their tests only; a production import of it would ship the test
// servers in the image.
package linkcheck
