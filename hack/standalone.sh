#!/usr/bin/env bash
# Each module of the workspace (the operators, common, testsupport, e2e)
# stands on its own: built with GOWORK=off,
# as its Dockerfile and `make release` build it, it compiles against the
# common of this tree through its replace directive and selects exactly the
# dependency versions the workspace's tests ran with. A module whose go.mod
# requires older versions than another module of the workspace would ship
# a binary built from code no test ran: raise its requirements.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
deps() {
  go list -deps -test -f '{{with .Module}}{{.Path}} {{.Version}}{{with .Replace}} => {{.Path}} {{.Version}}{{end}}{{end}}' ./... |
    grep -v '^github.com/c5c3/openstack-operators/' | sort -u
}
status=0
for mod in common testsupport placement-operator glance-operator barbican-operator e2e; do
  [ -d "$root/$mod" ] || continue
  cd "$root/$mod"
  if ! diff=$(diff <(GOWORK=off deps) <(deps)); then
    echo "$mod: with GOWORK=off (<) it selects other versions than the workspace (>):" >&2
    echo "$diff" | grep '^[<>]' >&2
    echo "  raise them: cd $mod && GOWORK=off go get <module>@<workspace version> && GOWORK=off go mod tidy" >&2
    status=1
    continue
  fi
  GOWORK=off go vet ./...
done
exit $status
