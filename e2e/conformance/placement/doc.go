// Package placement is the conformance suite of the Placement operator: it
// proves that what the operator writes starts the real OpenStack Placement
// service. Read docs/placement/conformance.md for what is real, what is
// mapped and how the Debian release differs from the CRs' releases.
package placement
