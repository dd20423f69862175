#!/usr/bin/env bash
# Installs Node.js MAJOR from the npm registry (the `node` package, whose binary comes from
# `node-<os>-<arch>`) into .ci/node/MAJOR and prints that binary package's folder (bin/node,
# include/ for native modules):  home=$(bash .ci/node.sh 24)
# Needs some node and npm on the PATH to start from. Already installed: no network, only
# the path. Only the path goes to stdout; progress goes to stderr.
set -euo pipefail

major="${1:-}"
if ! [[ "$major" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 MAJOR  (for instance 24)" >&2
  exit 2
fi
dir="$(cd "$(dirname "$0")" && pwd)/node/$major"

# The package's preinstall puts the binary package under the `node` package itself.
home_of() {
  local candidate
  for candidate in "$dir"/node_modules/node/node_modules/node-*-* "$dir"/node_modules/node-*-*; do
    [ -x "$candidate/bin/node" ] && [ -d "$candidate/include/node" ] || continue
    [[ "$("$candidate/bin/node" --version)" == "v$major."* ]] || continue
    echo "$candidate"
    return 0
  done
  return 1
}

if home_of; then exit 0; fi

echo "node.sh: installing node@$major into $dir" >&2
rm -rf "$dir"
mkdir -p "$dir"
npm install --prefix "$dir" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "node@$major" >&2
if home_of; then exit 0; fi
echo "node.sh: node@$major installed, but no node v$major binary with its headers under $dir" >&2
exit 1
