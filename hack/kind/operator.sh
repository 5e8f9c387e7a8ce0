#!/usr/bin/env bash
# Installs an operator on a kind cluster of hack/kind/cluster.sh as
# docs/<service>/install.md tells a user: its image from `make image`
# (loaded into the node, nothing pushed), the third-party CRDs it watches,
# then `helm install` of its chart; waits until its pod is Ready.
#   hack/kind/operator.sh OPERATOR CLUSTER     e.g. placement-operator op
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
root=$(dirname "$hack")
op=${1:?hack/kind/operator.sh OPERATOR CLUSTER}
cluster=${2:?hack/kind/operator.sh OPERATOR CLUSTER}
service=${op%-operator}

kubeconfig=$("$here/cluster.sh" up "$cluster")
eval "$("$here/cluster.sh" env)"
"$hack/tools.sh" helm kubectl kind
kubectl() { "$("$hack/tools.sh" --path kubectl)" --kubeconfig "$kubeconfig" "$@"; }
helm() { "$("$hack/tools.sh" --path helm)" --kubeconfig "$kubeconfig" "$@"; }

# The image as `make image` writes it: tagged $op:kind, which the node's
# containerd names docker.io/library/$op:kind.
tar=$(OUT_DIR="$root/bin/kind" "$hack/image.sh" "$op" "$op:kind")
"$("$hack/tools.sh" --path kind)" load image-archive "$tar" --name "$cluster" >&2

# shellcheck disable=SC2046 # one file per line
for f in $("$hack/crds.sh" with-gateway); do kubectl apply --server-side -f "$f" >/dev/null; done
helm dependency build "$root/charts/$op" >/dev/null
log "helm install $service into $service-system"
helm upgrade --install "$service" "$root/charts/$op" --namespace "$service-system" --create-namespace \
  --set image.repository="docker.io/library/$op" --set image.tag=kind --set image.pullPolicy=Never \
  --wait --timeout 5m >&2
kubectl -n "$service-system" rollout status "deployment/$service-$op" --timeout=5m >&2
