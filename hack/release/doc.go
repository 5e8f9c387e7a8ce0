// Package release holds the tests of the hack scripts: of `make release`
// (hack/release.sh), a
// dry run of every operator of the tree in a clean clone, with its artefacts
// checked the way a user would meet them, and the refusals of a release that
// must not happen; and of the scheduler of `make test` (hack/jobs.sh).
package release
