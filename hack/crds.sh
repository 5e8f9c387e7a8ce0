#!/usr/bin/env bash
# Prints, one per line, the real third-party CRD files the tests install:
# External Secrets (whose Go API we do not build), mariadb-operator and
# Gateway API, read from their modules (downloaded through the module proxy).
#
#   crds.sh [with-gateway|without-gateway|gateway-only] [--all-eso]
#
# with-gateway (the default) lists the ESO kinds the operators read, the
# mariadb-operator kinds and Gateway API; without-gateway leaves Gateway API
# out; gateway-only lists Gateway API alone. --all-eso adds every other ESO
# CRD, which the real ESO controller watches (generators, push secrets).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
mode=with-gateway all_eso=false
for arg in "$@"; do
  case "$arg" in
    with-gateway | without-gateway | gateway-only) mode=$arg ;;
    --all-eso) all_eso=true ;;
    *) echo "crds.sh: unknown argument $arg" >&2; exit 2 ;;
  esac
done
moddir() { "$here/moddir.sh" "$1" "$2"; }
gateway() {
  local gw f
  gw=$(moddir sigs.k8s.io/gateway-api "$GATEWAY_API_VERSION")
  for f in gatewayclasses gateways httproutes; do echo "$gw/config/crd/standard/gateway.networking.k8s.io_$f.yaml"; done
}
if [ "$mode" = gateway-only ]; then
  if $all_eso; then echo "crds.sh: --all-eso lists ESO CRDs, gateway-only lists none" >&2; exit 2; fi
  gateway
  exit 0
fi
eso=$(moddir github.com/external-secrets/external-secrets "$ESO_VERSION")
mdb=$(moddir github.com/mariadb-operator/mariadb-operator "$MARIADB_OPERATOR_VERSION")
used="clustersecretstores secretstores externalsecrets"
for f in $used; do echo "$eso/config/crds/bases/external-secrets.io_$f.yaml"; done
if $all_eso; then
  shopt -s nullglob
  bases=("$eso"/config/crds/bases/*external-secrets.io_*.yaml)
  [ "${#bases[@]}" -gt 3 ] || { echo "crds.sh: no ESO CRDs under $eso/config/crds/bases" >&2; exit 1; }
  for f in "${bases[@]}"; do
    name=$(basename "$f" .yaml)
    case " $used " in *" ${name#external-secrets.io_} "*) ;; *) echo "$f" ;; esac
  done
fi
for f in mariadbs databases users grants; do echo "$mdb/config/crd/bases/k8s.mariadb.com_$f.yaml"; done
if [ "$mode" = with-gateway ]; then gateway; fi
