#!/usr/bin/env bash
# Builds the pinned toolchain from the Go module proxy into a cache outside the
# work tree (shared by every clone on the machine), skipping what is there.
#   hack/tools.sh [kube-apiserver|kube-controller-manager|kube-scheduler|kubectl|kubelet|kubeadm|kube-proxy|etcd|controller-gen|kwok|kwokctl|helm|golangci-lint|promtool|external-secrets|versitygw|vault|kind|coredns|kube-router ...]
# With no argument it builds what the test tiers need. Prints nothing but progress on stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=versions.env
. "$here/versions.env"
export TOOLS_DIR=${C5C3_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/c5c3-operators/tools}
export GOFLAGS=-mod=mod
mkdir -p "$TOOLS_DIR"

log() { echo "hack/tools.sh: $*" >&2; }

# The Kubernetes binaries, etcd, kwok, helm and controller-gen come from one
# module, hack/toolchain (its go.mod pins them, and every library they
# share with each other and with the workspace at the workspace's versions:
# each such package is compiled once into the build cache, for the tools
# and for the tests alike). Their binaries are kept under a hash of that
# module's go.mod and go.sum, so a change to either builds them again.
toolchain="$here/toolchain"
toolchain_bin() {
  echo "$TOOLS_DIR/bin/toolchain-$(cat "$toolchain/go.mod" "$toolchain/go.sum" | sha256sum | cut -c1-12)"
}

# toolchain_version MODULE prints the version hack/toolchain pins MODULE at.
toolchain_version() {
  (cd "$toolchain" && GOWORK=off GOFLAGS= go list -m -f '{{.Version}}' "$1")
}

# build_tool NAME PACKAGE builds one command of hack/toolchain. Kubernetes'
# commands and helm get the version their own builds stamp in, so that they
# report it (helm would say v3.21 and not which one). No -trimpath here or
# below: the tests compile without it, and the build cache shares a package
# between two builds only when both compile it the same way.
build_tool() {
  local name=$1 pkg=$2 out v
  out="$(toolchain_bin)/$1"
  [ -x "$out" ] && return 0
  log "building $name from hack/toolchain (several minutes on first use)"
  local ldflags="-s -w"
  case $pkg in
    k8s.io/kubernetes/*)
      local major minor vpkg=k8s.io/component-base/version
      v=$(toolchain_version k8s.io/kubernetes)
      major=${v#v}; major=${major%%.*}
      minor=${v#v*.}; minor=${minor%%.*}
      ldflags+=" -X $vpkg.gitVersion=$v -X $vpkg.gitMajor=$major -X $vpkg.gitMinor=$minor -X $vpkg.gitTreeState=clean"
      ;;
    helm.sh/helm/v3/*)
      v=$(toolchain_version helm.sh/helm/v3)
      ldflags+=" -X helm.sh/helm/v3/internal/version.version=$v"
      ;;
  esac
  (cd "$toolchain" && GOWORK=off GOFLAGS= go build -ldflags "$ldflags" -o "$out" "$pkg")
}

# module_copy MODULE VERSION prints a new temporary directory holding a
# writable copy of the module's source, for the builds that change a file of
# it (the caller removes it).
module_copy() {
  local src dir
  src=$("$here/moddir.sh" "$1" "$2")
  dir=$(mktemp -d)
  cp -r "$src/." "$dir/" && chmod -R u+w "$dir"
  echo "$dir"
}

# build_eso builds the External Secrets Operator's controller from its own
# module (its go.mod, with its replace directives), outside our workspace:
# its API packages do not compile with our controller-runtime, its binary
# does with its own. The suites and `make run` use its fake provider only,
# so the build registers that one: ESO's provider and generator registries
# are lists of blank imports, and the full lists pull in every cloud's SDK
# (2016 packages against 892; the longest build of a fresh machine's set-up,
# about 15 CPU minutes, docs/decisions/toolchain.md). The controllers
# themselves are ESO's own, unchanged.
build_eso() {
  local out dir
  out=$(path external-secrets)
  [ -x "$out" ] && return 0
  log "building external-secrets $ESO_VERSION with its fake provider (its own module; a few minutes)"
  dir=$(module_copy github.com/external-secrets/external-secrets "$ESO_VERSION")
  local kind
  for kind in provider generator; do
    printf 'package register\n\nimport _ "github.com/external-secrets/external-secrets/pkg/%s/fake"\n' "$kind" \
      >"$dir/pkg/$kind/register/register.go"
  done
  mkdir -p "$(dirname "$out")"
  (cd "$dir" && GOWORK=off GOFLAGS=-mod=mod go build -ldflags "-s -w" -o "$out" .)
  rm -rf "$dir"
}

# build_vault builds HashiCorp Vault, the OpenBao-compatible server Barbican's
# tests run (the OpenBao server module is not served by the proxy), with the
# plugins those tests use only (hack/vault-plugins.patch says which and why).
# Vault's go.mod replaces its api/sdk modules with directories of its own
# tree, which a module download lacks: without those replace directives
# they resolve to their published versions.
build_vault() {
  local out dir
  out=$(path vault)
  [ -x "$out" ] && return 0
  log "building vault $VAULT_VERSION with the plugins Barbican's tests use (its own requirements; several minutes)"
  dir=$(module_copy github.com/hashicorp/vault "$VAULT_VERSION")
  awk '/^replace[ \t]*\($/{skip=1; next}
    skip && /^\)/{skip=0; next}
    skip || /^replace[ \t]/{next}
    {print}' "$dir/go.mod" >"$dir/go.mod.new" && mv "$dir/go.mod.new" "$dir/go.mod"
  (cd "$dir" && git apply "$here/vault-plugins.patch")
  mkdir -p "$(dirname "$out")"
  (cd "$dir" && GOWORK=off GOFLAGS=-mod=mod go build -ldflags "-s -w" -o "$out" .)
  rm -rf "$dir"
}

# go_install NAME PACKAGE VERSION [BUILD FLAG...]
go_install() {
  local name=$1 pkg=$2 version=$3 out="$TOOLS_DIR/bin/$1-$3/$1"
  shift 3
  [ -x "$out" ] && return 0
  log "installing $name $version"
  GOBIN="$TOOLS_DIR/bin/$name-$version" go install -ldflags "-s -w" "$@" "$pkg@$version"
}

# path prints where a tool lives once built.
path() {
  case $1 in
    kube-apiserver|kube-controller-manager|kube-scheduler|kubectl|kubelet|kubeadm|kube-proxy|etcd|controller-gen|kwok|kwokctl|helm) echo "$(toolchain_bin)/$1" ;;
    golangci-lint) echo "$TOOLS_DIR/bin/golangci-lint-$GOLANGCI_LINT_VERSION/golangci-lint" ;;
    promtool) echo /usr/bin/promtool ;;
    external-secrets) echo "$TOOLS_DIR/bin/external-secrets-$ESO_VERSION/external-secrets" ;;
    versitygw) echo "$TOOLS_DIR/bin/versitygw-$VERSITYGW_VERSION/versitygw" ;;
    vault) echo "$TOOLS_DIR/bin/vault-$VAULT_VERSION/vault" ;;
    kind) echo "$TOOLS_DIR/bin/kind-$KIND_VERSION/kind" ;;
    coredns) echo "$TOOLS_DIR/bin/coredns-$COREDNS_VERSION/coredns" ;;
    kube-router) echo "$TOOLS_DIR/bin/kube-router-$KUBE_ROUTER_VERSION/kube-router" ;;
    *) log "unknown tool $1"; return 2 ;;
  esac
}

build() {
  case $1 in
    kube-apiserver|kube-controller-manager|kube-scheduler|kubectl) build_tool "$1" "k8s.io/kubernetes/cmd/$1" ;;
    # The real-node tier's node (kubelet, kubeadm) and its kube-proxy image.
    kubelet|kubeadm|kube-proxy) build_tool "$1" "k8s.io/kubernetes/cmd/$1" ;;
    etcd) build_tool etcd go.etcd.io/etcd/server/v3 ;;
    controller-gen) build_tool controller-gen sigs.k8s.io/controller-tools/cmd/controller-gen ;;
    kwok|kwokctl) build_tool "$1" "sigs.k8s.io/kwok/cmd/$1" ;;
    helm) build_tool helm helm.sh/helm/v3/cmd/helm ;;
    golangci-lint) go_install golangci-lint github.com/golangci/golangci-lint/v2/cmd/golangci-lint "$GOLANGCI_LINT_VERSION" ;;
    # Checks and unit-tests the charts' alerting rules: Debian's, from the
    # prometheus package hack/debian.sh installs (docs/decisions/toolchain.md
    # says why not a build of our own).
    promtool) "$here/debian.sh" ;;
    external-secrets) build_eso ;;
    # A real S3 server (S3 over a directory) for Glance's S3 stores.
    versitygw) go_install versitygw github.com/versity/versitygw/cmd/versitygw "$VERSITYGW_VERSION" ;;
    # An OpenBao-compatible server (KV v2, AppRole, Kubernetes auth) for Barbican.
    vault) build_vault ;;
    # The real-node tier: kind, and the images of the node's DNS and CNI
    # (static: their images have no libc).
    kind) go_install kind sigs.k8s.io/kind "$KIND_VERSION" ;;
    coredns) CGO_ENABLED=0 go_install coredns github.com/coredns/coredns "$COREDNS_VERSION" ;;
    kube-router) CGO_ENABLED=0 go_install kube-router github.com/cloudnativelabs/kube-router/v2/cmd/kube-router "$KUBE_ROUTER_VERSION" ;;
    *) log "unknown tool $1"; return 2 ;;
  esac
}

# envtest_assets builds kube-apiserver and etcd and prints a directory holding
# both, the layout controller-runtime's envtest expects in KUBEBUILDER_ASSETS.
envtest_assets() {
  build etcd; build kube-apiserver
  local dir
  dir="$(toolchain_bin)/envtest"
  mkdir -p "$dir"
  ln -sf "$(path etcd)" "$dir/etcd"
  ln -sf "$(path kube-apiserver)" "$dir/kube-apiserver"
  echo "$dir"
}

if [ "${1:-}" = "--path" ]; then path "$2"; exit; fi
if [ "${1:-}" = "--envtest-assets" ]; then envtest_assets; exit; fi
[ $# -gt 0 ] || set -- etcd kube-apiserver controller-gen golangci-lint
for t in "$@"; do build "$t"; done
