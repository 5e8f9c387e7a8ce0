#!/usr/bin/env bash
# Regenerates deepcopy code, CRDs, RBAC and webhook manifests with the pinned controller-gen.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/hack/tools.sh" controller-gen
cg=$("$root/hack/tools.sh" --path controller-gen)
cd "$root/common"
"$cg" object paths=./api/...
for op in placement-operator glance-operator; do
  cd "$root/$op"
  "$cg" object paths=./api/...
  "$cg" crd rbac:roleName="$op" webhook paths=./... \
    output:crd:artifacts:config=config/crd output:rbac:artifacts:config=config/rbac output:webhook:artifacts:config=config/webhook
done

# The chart ships the generated CRD and the generated ClusterRole rules verbatim.
chart="$root/charts/placement-operator"
mkdir -p "$chart/crds" "$chart/files"
cp "$root/placement-operator/config/crd/"*.yaml "$chart/crds/"
cp "$root/placement-operator/config/rbac/role.yaml" "$chart/files/clusterrole.yaml"
