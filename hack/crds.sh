#!/usr/bin/env bash
# Prints, one per line, the real third-party CRD files the tests install:
# External Secrets (whose Go API we do not build), mariadb-operator and
# Gateway API, read from their modules (downloaded through the module proxy).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/versions.env"
moddir() { (cd "$here" && GOFLAGS=-mod=mod go mod download -json "$1@$2" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p'); }
eso=$(moddir github.com/external-secrets/external-secrets "$ESO_VERSION")
mdb=$(moddir github.com/mariadb-operator/mariadb-operator "$MARIADB_OPERATOR_VERSION")
gw=$(moddir sigs.k8s.io/gateway-api "$GATEWAY_API_VERSION")
for f in clustersecretstores secretstores externalsecrets; do echo "$eso/config/crds/bases/external-secrets.io_$f.yaml"; done
for f in mariadbs databases users grants; do echo "$mdb/config/crd/bases/k8s.mariadb.com_$f.yaml"; done
case "${1:-with-gateway}" in
  with-gateway) for f in gatewayclasses gateways httproutes; do echo "$gw/config/crd/standard/gateway.networking.k8s.io_$f.yaml"; done ;;
esac
