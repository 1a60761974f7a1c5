#!/usr/bin/env bash
# Installs code-server 4.100.3 (the newest release that accepts Node 20) into a cache
# directory outside the repository and prints the path of its launcher.
# Reused when already present. Works offline apart from npm: every download the
# package's install scripts would make from GitHub or nodejs.org is replaced.
set -euo pipefail

VERSION=4.100.3
DEST="${CODE_SERVER_DIR:-$HOME/.cache/context-sidecar/code-server-$VERSION}"
BIN="$DEST/node_modules/.bin/code-server"

if [[ -x "$BIN" ]] && "$BIN" --version 2>/dev/null | grep -q "^$VERSION"; then
  echo "$BIN"
  exit 0
fi

command -v rg >/dev/null || { echo "ripgrep (rg) is required to seed code-server's ripgrep download" >&2; exit 1; }

mkdir -p "$DEST/tmp"
# @vscode/ripgrep's postinstall fetches rg from api.github.com; seed its cache with Debian's rg.
RG_CACHE="$DEST/tmp/vscode-ripgrep-cache-1.15.11"
mkdir -p "$RG_CACHE"
tar czf "$RG_CACHE/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz" -C "$(dirname "$(command -v rg)")" rg

cd "$DEST"
[[ -f package.json ]] || npm init -y >/dev/null
# unsafe_perm: postinstall refuses to run as root otherwise.
# build_from_source: prebuilt binaries live on GitHub, which is unreachable.
# yes: node-pty's postinstall runs `npx node-gyp`, which must not prompt.
# nodedir: node-gyp would download headers from nodejs.org; Debian's are in /usr/include/node.
TMPDIR="$DEST/tmp" npm_config_unsafe_perm=true npm_config_build_from_source=true \
  npm_config_yes=true npm_config_nodedir=/usr \
  npm install --no-audit --no-fund --foreground-scripts "code-server@$VERSION" >"$DEST/install.log" 2>&1 \
  || { tail -40 "$DEST/install.log" >&2; exit 1; }

"$BIN" --version >/dev/null
echo "$BIN"
