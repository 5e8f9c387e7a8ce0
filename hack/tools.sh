#!/usr/bin/env bash
# Builds the pinned toolchain from the Go module proxy into a cache outside the
# work tree (shared by every clone on the machine), skipping what is there.
#   hack/tools.sh [kube-apiserver|kube-controller-manager|kube-scheduler|kubectl|etcd|controller-gen|kwok|kwokctl|helm|golangci-lint|promtool|external-secrets|versitygw|vault ...]
# With no argument it builds what the test tiers need. Prints nothing but progress on stderr.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=versions.env
. "$here/versions.env"
export TOOLS_DIR=${C5C3_TOOLS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/c5c3-operators/tools}
export GOFLAGS=-mod=mod
mkdir -p "$TOOLS_DIR"

log() { echo "hack/tools.sh: $*" >&2; }

# kube_module prepares a throwaway module that requires k8s.io/kubernetes and
# maps every staging module to its published v0.Y.Z, as the recipe needs.
kube_module() {
  local dir="$TOOLS_DIR/src/kubernetes-$KUBE_VERSION"
  if [ ! -f "$dir/.ready" ]; then
    mkdir -p "$dir"
    local modfile staging="v0.${KUBE_VERSION#v1.}"
    modfile=$(cd "$dir" && GOFLAGS= go mod download -json "k8s.io/kubernetes@$KUBE_VERSION" | sed -n 's/.*"GoMod": "\(.*\)".*/\1/p')
    {
      echo "module c5c3.local/kubetools"
      echo "go 1.26"
      echo "require k8s.io/kubernetes $KUBE_VERSION"
      echo "replace ("
      sed -n '/^replace (/,/^)/p' "$modfile" | grep -o 'k8s.io/[a-z0-9-]* =>' | awk -v v="$staging" '{print "\t" $1 " => " $1 " " v}'
      echo ")"
    } >"$dir/go.mod"
    touch "$dir/.ready"
  fi
  echo "$dir"
}

build_kube() {
  local name=$1 out="$TOOLS_DIR/bin/$KUBE_VERSION/$1"
  [ -x "$out" ] && return 0
  log "building $name $KUBE_VERSION (several minutes on first use)"
  local dir major minor pkg=k8s.io/component-base/version
  dir=$(kube_module)
  major=${KUBE_VERSION#v}; major=${major%%.*}
  minor=${KUBE_VERSION#v*.}; minor=${minor%%.*}
  (cd "$dir" && go build -trimpath -o "$out" \
    -ldflags "-s -w -X $pkg.gitVersion=$KUBE_VERSION -X $pkg.gitMajor=$major -X $pkg.gitMinor=$minor -X $pkg.gitTreeState=clean" \
    "k8s.io/kubernetes/cmd/$name")
}

build_etcd() {
  local out="$TOOLS_DIR/bin/etcd-$ETCD_VERSION/etcd"
  [ -x "$out" ] && return 0
  log "building etcd $ETCD_VERSION"
  local dir="$TOOLS_DIR/src/etcd-$ETCD_VERSION"
  mkdir -p "$dir"
  printf 'module c5c3.local/etcdtools\ngo 1.26\nrequire go.etcd.io/etcd/server/v3 %s\n' "$ETCD_VERSION" >"$dir/go.mod"
  (cd "$dir" && go build -trimpath -ldflags "-s -w" -o "$out" go.etcd.io/etcd/server/v3)
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
  (cd "$dir" && GOWORK=off GOFLAGS=-mod=mod go build -trimpath -ldflags "-s -w" -o "$out" .)
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
  (cd "$dir" && GOWORK=off GOFLAGS=-mod=mod go build -trimpath -ldflags "-s -w" -o "$out" .)
  rm -rf "$dir"
}

# go_install NAME PACKAGE VERSION [BUILD FLAG...]
go_install() {
  local name=$1 pkg=$2 version=$3 out="$TOOLS_DIR/bin/$1-$3/$1"
  shift 3
  [ -x "$out" ] && return 0
  log "installing $name $version"
  GOBIN="$TOOLS_DIR/bin/$name-$version" go install -trimpath -ldflags "-s -w" "$@" "$pkg@$version"
}

# path prints where a tool lives once built.
path() {
  case $1 in
    kube-apiserver|kube-controller-manager|kube-scheduler|kubectl) echo "$TOOLS_DIR/bin/$KUBE_VERSION/$1" ;;
    etcd) echo "$TOOLS_DIR/bin/etcd-$ETCD_VERSION/etcd" ;;
    controller-gen) echo "$TOOLS_DIR/bin/controller-gen-$CONTROLLER_TOOLS_VERSION/controller-gen" ;;
    kwok|kwokctl) echo "$TOOLS_DIR/bin/$1-$KWOK_VERSION/$1" ;;
    helm) echo "$TOOLS_DIR/bin/helm-$HELM_VERSION/helm" ;;
    golangci-lint) echo "$TOOLS_DIR/bin/golangci-lint-$GOLANGCI_LINT_VERSION/golangci-lint" ;;
    promtool) echo /usr/bin/promtool ;;
    external-secrets) echo "$TOOLS_DIR/bin/external-secrets-$ESO_VERSION/external-secrets" ;;
    versitygw) echo "$TOOLS_DIR/bin/versitygw-$VERSITYGW_VERSION/versitygw" ;;
    vault) echo "$TOOLS_DIR/bin/vault-$VAULT_VERSION/vault" ;;
    *) log "unknown tool $1"; return 2 ;;
  esac
}

build() {
  case $1 in
    kube-apiserver|kube-controller-manager|kube-scheduler|kubectl) build_kube "$1" ;;
    etcd) build_etcd ;;
    controller-gen) go_install controller-gen sigs.k8s.io/controller-tools/cmd/controller-gen "$CONTROLLER_TOOLS_VERSION" ;;
    kwok) go_install kwok sigs.k8s.io/kwok/cmd/kwok "$KWOK_VERSION" ;;
    kwokctl) go_install kwokctl sigs.k8s.io/kwok/cmd/kwokctl "$KWOK_VERSION" ;;
    helm) go_install helm helm.sh/helm/v3/cmd/helm "$HELM_VERSION" ;;
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
    *) log "unknown tool $1"; return 2 ;;
  esac
}

# envtest_assets builds kube-apiserver and etcd and prints a directory holding
# both, the layout controller-runtime's envtest expects in KUBEBUILDER_ASSETS.
envtest_assets() {
  build etcd; build kube-apiserver
  local dir="$TOOLS_DIR/envtest/$KUBE_VERSION-etcd-$ETCD_VERSION"
  mkdir -p "$dir"
  ln -sf "$(path etcd)" "$dir/etcd"
  ln -sf "$(path kube-apiserver)" "$dir/kube-apiserver"
  echo "$dir"
}

if [ "${1:-}" = "--path" ]; then path "$2"; exit; fi
if [ "${1:-}" = "--envtest-assets" ]; then envtest_assets; exit; fi
[ $# -gt 0 ] || set -- etcd kube-apiserver controller-gen golangci-lint
for t in "$@"; do build "$t"; done
