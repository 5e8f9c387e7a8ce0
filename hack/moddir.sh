#!/usr/bin/env bash
# Prints the directory of a module version in the module cache, downloading
# it through the module proxy when missing.
#   hack/moddir.sh <module> <version>
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here" && GOFLAGS=-mod=mod go mod download -json "$1@$2" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p'
