#!/usr/bin/env bash
# The real-node tier's smoke of the cluster itself: on a kind cluster of
# hack/kind/cluster.sh, a pod runs under PodSecurity `restricted`, another
# namespace's pod reaches it over the pod network, and the cluster enforces
# NetworkPolicy: a deny-all policy closes the port, a policy allowing the
# client's namespace opens it again, deleting that policy closes it.
#   hack/kind/smoke.sh KUBECONFIG
# Each state is polled until it holds (the firewall follows a policy within
# seconds), up to a bound far above that; a state that never comes fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
kubeconfig=${1:?hack/kind/smoke.sh KUBECONFIG}
kubectl=$("$hack/tools.sh" --path kubectl)
kc() { "$kubectl" --kubeconfig "$kubeconfig" "$@"; }

kc delete namespace smoke-server smoke-client --ignore-not-found --wait >/dev/null
kc apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Namespace
metadata:
  name: smoke-server
  labels: {pod-security.kubernetes.io/enforce: restricted}
---
apiVersion: v1
kind: Namespace
metadata:
  name: smoke-client
  labels: {pod-security.kubernetes.io/enforce: restricted}
---
apiVersion: v1
kind: Pod
metadata: {name: server, namespace: smoke-server, labels: {app: server}}
spec:
  securityContext: {runAsNonRoot: true, runAsUser: 65532, seccompProfile: {type: RuntimeDefault}}
  containers:
  - name: dns
    image: registry.k8s.io/coredns/coredns:$COREDNS_VERSION
    imagePullPolicy: Never
    args: [-dns.port, "1053"]
    securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}
---
apiVersion: v1
kind: Pod
metadata: {name: client, namespace: smoke-client}
spec:
  securityContext: {runAsNonRoot: true, runAsUser: 65532, seccompProfile: {type: RuntimeDefault}}
  containers:
  - name: client
    image: localhost/c5c3-kind/kube-router:$KUBE_ROUTER_VERSION
    imagePullPolicy: Never
    command: [sleep, infinity]
    securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL]}}
EOF
kc -n smoke-server wait --for=condition=Ready pod/server --timeout=5m >/dev/null
kc -n smoke-client wait --for=condition=Ready pod/client --timeout=5m >/dev/null
ip=$(kc -n smoke-server get pod server -o jsonpath='{.status.podIP}')

# probe prints open or closed: a TCP connect from the client to the server.
probe() {
  kc -n smoke-client exec client -- bash -c "timeout 3 bash -c 'echo >/dev/tcp/$ip/1053' 2>/dev/null && echo open || echo closed"
}
# expect STATE WHAT: polls until the probe says STATE (two minutes at most).
expect() {
  local got
  for _ in $(seq 60); do
    got=$(probe)
    [ "$got" != "$1" ] || { log "$2: $1"; return 0; }
    sleep 2
  done
  log "FAIL: $2: the port stayed $got, want $1"
  return 1
}

expect open "no policy"
kc apply -f - >/dev/null <<EOF
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: deny-all, namespace: smoke-server}
spec:
  podSelector: {}
  policyTypes: [Ingress]
EOF
expect closed "deny-all ingress"
kc apply -f - >/dev/null <<EOF
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: allow-client, namespace: smoke-server}
spec:
  podSelector: {matchLabels: {app: server}}
  policyTypes: [Ingress]
  ingress:
  - from:
    - namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: smoke-client}}
    ports:
    - {port: 1053, protocol: TCP}
EOF
expect open "allowed from the client's namespace"
kc -n smoke-server delete networkpolicy allow-client >/dev/null
expect closed "the allowing policy deleted"
kc delete namespace smoke-server smoke-client --wait=false >/dev/null
log "passed"
