#!/usr/bin/env bash
# The test command: builds the toolchain when missing, checks generated files,
# then vets, lints and tests every module of the workspace against a real
# kube-apiserver and etcd, the real services and the operators' e2e suites.
#
# It is a set of jobs (hack/jobs.sh) that run side by side, at most three at
# a time, each once what it needs is there: on a warm machine the e2e suites
# start at once and the rest fills the cores beside them; on a fresh one the
# set-up's builds and downloads run first, and each test job starts as soon
# as its tools are built. docs/decisions/test-run-layout.md has the
# reasoning and the measured times.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# Binaries built here (test binaries, the operators the e2e suites start)
# carry no DWARF: a quarter less linking, and no debugger reads them.
export GOFLAGS=${GOFLAGS:--buildvcs=false -ldflags=-w}
# shellcheck source=jobs.sh
. hack/jobs.sh

# The workspace's modules, and their packages by what their tests need.
modules=$(go work edit -json | sed -n 's/.*"DiskPath": "\.\/\(.*\)".*/\1/p')
# packages PATTERN [-v]: the workspace's packages whose import path matches
# (grep -E) PATTERN, or with -v does not.
packages() {
  # shellcheck disable=SC2046 # one word per module
  go list $(printf './%s/... ' $modules) | grep -E ${2:+"$2"} "$1" || true
}
# The e2e module's suites: each starts the real services, a control plane
# or both, and owns a job of its own below.
suites='/e2e/(placement|glance|barbican|conformance/.*)$'
# Tests that start the Vault server, or need helm and promtool.
vault='/testsupport/openbao$|/barbican-operator(/|$)'
tools='/e2e/charts$|/hack/release$'
# Tests of the e2e module's parts that start real servers (MariaDB, S3, a
# kwok cluster): they need the Debian packages and the e2e tools.
servers='/e2e/(bench|cluster|localrun|localsvc|standins|tempest|observability|poll|cmd/.*)$'

# gotest PACKAGE...: the tests of the packages, with a timeout far above
# their time on a busy machine.
gotest() { go test -count=1 -timeout 45m "$@"; }

# Set-up, each step skipped when its result is there: the control plane's
# binaries (envtest and the e2e clusters); the linter and the generator;
# the Debian packages of the real servers; the e2e tools (the real ESO, the
# S3 server, helm, kwok); the root filesystem of Debian sid's services
# (about four minutes once per machine); the OpenBao-compatible server.
# What hack/toolchain builds (the control plane, controller-gen, helm,
# kwok) shares its compiled libraries with the other tools of that module:
# each job builds its own modules' tools first and hack/toolchain's after,
# when the kube job has compiled most of what they share (two builds
# compiling the same package at the same time both do the work).
job_kube() { hack/tools.sh etcd kube-apiserver kube-controller-manager kube-scheduler kubectl; }
job_checktools() { hack/tools.sh golangci-lint controller-gen; }
job_debian() { hack/debian.sh; }
job_e2etools() { hack/tools.sh external-secrets versitygw helm kwok kwokctl; }
job_rootfs() { hack/rootfs.sh sid >/dev/null; }
job_vault() { hack/tools.sh vault; }

job_generate() {
  hack/generate.sh
  local generated=('*.go' '*.yaml' charts 'docs/*/crd-reference.md' '*/Dockerfile')
  if git rev-parse --git-dir >/dev/null 2>&1 && ! git diff --quiet -- "${generated[@]}"; then
    git --no-pager diff --stat -- "${generated[@]}"
    echo "generated files differ from the committed ones: run hack/generate.sh and commit" >&2
    return 1
  fi
}
job_standalone() { hack/standalone.sh; }
# One vet over every module: it compiles every package (each once, into the
# build cache) before the test jobs start, which would otherwise compile
# the same dependencies side by side on a fresh machine. Then one lint: the
# modules share most of their packages, so one invocation type-checks each
# once.
job_vet() {
  # shellcheck disable=SC2046 # one word per module
  go vet $(printf './%s/... ' $modules)
}
job_lint() {
  # shellcheck disable=SC2046
  "$(hack/tools.sh --path golangci-lint)" run $(printf './%s/... ' $modules)
}
envtest() {
  KUBEBUILDER_ASSETS=$(hack/tools.sh --envtest-assets)
  export KUBEBUILDER_ASSETS
}
# Unit and envtest tests of common and testsupport, then of the operators (a real
# kube-apiserver and etcd, each operator acting with only its generated
# RBAC).
unit() {
  envtest
  # shellcheck disable=SC2046 # one word per package
  gotest $(packages "$suites|$vault|$tools|$servers" -v | grep -E ${2:+"$2"} "$1")
}
job_common() { unit '/(common|testsupport)/'; }
job_operators() { unit '/(common|testsupport)/' -v; }
# The e2e module's parts against real servers, the chart tests (helm,
# promtool) and the release dry runs.
job_parts() {
  envtest
  # shellcheck disable=SC2046
  gotest $(packages "$servers|$tools")
}
# Barbican's operator and store tests against a real Vault server.
job_vaulttests() {
  envtest
  # shellcheck disable=SC2046
  gotest $(packages "$vault")
}
# The conformance suites, each against the real services of Debian
# bookworm (Zed) and of Debian sid (2026.2); Barbican's runs sid's barbican
# 23 only (bookworm's has no barbican.wsgi.api).
conformance() { envtest; (cd e2e && gotest "./conformance/$1/"); }
job_conformance_placement() { conformance placement; }
job_conformance_glance() { conformance glance; }
job_conformance_barbican() { conformance barbican; }
job_conformance_sid_placement() { CONFORMANCE_DEBIAN=sid conformance placement; }
job_conformance_sid_glance() { CONFORMANCE_DEBIAN=sid conformance glance; }
# The operators' e2e suites, each on its own control plane: most of a
# suite's time is waiting for its control plane, its operator and the pods'
# API processes, and its waits follow progress, not a deadline.
e2e() { envtest; (cd e2e && gotest "./$1/"); }
job_e2e_placement() { e2e placement; }
job_e2e_glance() { e2e glance; }
job_e2e_barbican() { e2e barbican; }
job_bench() { hack/bench.sh --smoke; }

# In order of priority, with the share of a core each keeps busy (percent,
# measured alone on two cores): a job that is ready starts before those
# declared after it, when it fits (hack/jobs.sh). The set-up first: two
# builds at a time beside the downloads (on a warm machine each is done at
# once); then vet and lint; the tests of common, short and heavy, beside
# the first e2e suite; then the longest jobs first (the e2e suites and
# sid's Glance conformance, about 10 minutes each), so that no long job
# starts last.
job kube 110
job checktools 110
job debian 25
job generate 100 checktools
job e2etools 110
job rootfs 25 debian
job vault 110
job vet 150 generate
job lint 190 vet
e2e_needs='vet kube e2etools debian rootfs vault'
conformance_needs='vet kube e2etools debian rootfs'
job common 100 vet kube
job e2e_glance 60 $e2e_needs
job e2e_placement 50 $e2e_needs
job e2e_barbican 60 $e2e_needs
job conformance_sid_glance 80 $conformance_needs
job operators 100 vet kube
job conformance_glance 80 $conformance_needs
job parts 100 vet kube e2etools debian
job conformance_barbican 60 $conformance_needs vault
job conformance_sid_placement 60 $conformance_needs
job conformance_placement 60 $conformance_needs
job vaulttests 90 vet kube vault
job bench 90 vet kube
job standalone 150 vet
run_jobs
