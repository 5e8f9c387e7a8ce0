// Package placement is the Placement operator's e2e suite; see
// docs/placement/e2e.md. It runs on a local control plane with kwok nodes
// (e2e/cluster), installs the operator's Helm chart, and runs the operator
// binary as a process that authenticates with the chart's ServiceAccount
// token.
package placement
