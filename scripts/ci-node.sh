#!/usr/bin/env bash
# Fetch a Node.js release from the npm registry (the `node-linux-<arch>` package holds the whole
# distribution: bin/node and the headers node-gyp needs), cache it, and run a command under it.
#
#   scripts/ci-node.sh 24.22.3                  # fetch if missing; print its directory
#   scripts/ci-node.sh 24.22.3 npm ci           # run a command with that node first on PATH
#   scripts/ci-node.sh 24 node -v               # a major line: its newest release, asked of npm
#
# The command's PATH starts with the release's bin/, so `npm` (the system's: a script run by
# whichever `node` comes first) and everything it starts use that Node. npm_config_nodedir points
# node-gyp at the release's own headers, so native addons (better-sqlite3) build without
# downloading headers from nodejs.org (and without using the system Node's, npm's default here).
# Cache: $WEFT_CI_CACHE/node (default ~/.cache/weft-ci). See docs/operations.md "Node versions".
set -euo pipefail

if [ $# -lt 1 ]; then
  echo "usage: $0 <version|major> [command...]" >&2
  exit 2
fi
want="$1"
shift

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *)
    echo "ci-node: no node-linux package for $(uname -m)" >&2
    exit 1
    ;;
esac
pkg="node-linux-$arch"
cache="${WEFT_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/weft-ci}/node"

if [[ "$want" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  version="$want"
else
  # The newest release of a line; offline, the newest one already cached.
  version="$(npm view "$pkg@$want" version --json 2>/dev/null | tr -d '[]" \n' | tr ',' '\n' | sort -V | tail -1 || true)"
  if [ -z "$version" ]; then
    version="$(ls "$cache" 2>/dev/null | grep -E "^$want\." | sort -V | tail -1 || true)"
  fi
  if [ -z "$version" ]; then
    echo "ci-node: cannot resolve $pkg@$want (registry unreachable and nothing cached)" >&2
    exit 1
  fi
fi

dir="$cache/$version"
if [ ! -x "$dir/bin/node" ]; then
  mkdir -p "$cache"
  tmp="$(mktemp -d "$cache/.fetch-XXXXXX")"
  trap 'rm -rf "$tmp"' EXIT
  start=$SECONDS
  # npm pack checks the tarball against the registry's integrity hash.
  (cd "$tmp" && npm pack "$pkg@$version" --silent >/dev/null)
  tar -xzf "$tmp"/*.tgz -C "$tmp"
  rm -rf "$dir"
  mv "$tmp/package" "$dir"
  echo "ci-node: fetched $pkg@$version in $((SECONDS - start)) s" >&2
fi
echo "ci-node: node $("$dir/bin/node" -v) at $dir" >&2

if [ $# -eq 0 ]; then
  echo "$dir"
  exit 0
fi
export PATH="$dir/bin:$PATH"
export npm_config_nodedir="$dir"
exec "$@"
