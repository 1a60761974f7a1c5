#!/usr/bin/env bash
# Every test layer of the VS Code extension, in order of cost:
#   unit      node --test, host code with the `vscode` module replaced
#   webview   the chat webview bundle in headless Chromium (playwright-core)
#   protocol  vscode-jsonrpc + the extension's ChatController against the real sidecar
#   e2e       the packaged extension in code-server 4.100.3, driven by Chromium
# Usage: scripts/test.sh [layer ...]   (default: all four, plus typecheck and the .vsix)
# Installs what it needs on a fresh Debian machine (as root, or with sudo).
# Environment: PYTHON (default $REPO/.venv/bin/python), CODE_SERVER_DIR (install cache).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
REPO="$(cd "$HERE/.." && pwd)"
export PYTHON="${PYTHON:-$REPO/.venv/bin/python}"
cd "$HERE"

LAYERS=("$@")
[[ ${#LAYERS[@]} -gt 0 ]] || LAYERS=(unit webview protocol e2e)
wants() { local l; for l in "${LAYERS[@]}"; do [[ "$l" == "$1" ]] && return 0; done; return 1; }

declare -a SUMMARY=()
timed() {
  # timed NAME LIMIT_SECONDS COMMAND...: run with a hard time limit and record the duration.
  local name="$1" limit="$2"; shift 2
  local start=$SECONDS
  echo "==> $name"
  if timeout --kill-after=10 "$limit" "$@"; then
    SUMMARY+=("$(printf '%-10s ok     %4ss' "$name" $((SECONDS - start)))")
  else
    local rc=$?
    SUMMARY+=("$(printf '%-10s FAILED %4ss (exit %s)' "$name" $((SECONDS - start)) "$rc")")
    printf '%s\n' "${SUMMARY[@]}"
    exit "$rc"
  fi
}

# ---- system packages, only when missing ------------------------------------------------
missing=()
if wants webview || wants e2e; then command -v chromium >/dev/null || missing+=(chromium); fi
if wants e2e; then
  command -v rg >/dev/null || missing+=(ripgrep)
  command -v make >/dev/null && command -v g++ >/dev/null || missing+=(build-essential)
  command -v pkg-config >/dev/null || missing+=(pkg-config)
  dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
fi
if [[ ${#missing[@]} -gt 0 ]]; then
  SUDO=""
  [[ $(id -u) -eq 0 ]] || SUDO="sudo"
  echo "==> apt-get install ${missing[*]}"
  $SUDO apt-get update
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y "${missing[@]}"
fi

# ---- node packages: npm ci when the lockfile changed --------------------------------------
lock_hash="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [[ ! -f node_modules/.ci-stamp || "$(cat node_modules/.ci-stamp)" != "$lock_hash" ]]; then
  timed "npm ci" 600 npm ci --no-audit --no-fund
  echo "$lock_hash" > node_modules/.ci-stamp
fi

timed build 120 node scripts/build.mjs --tests
timed typecheck 120 npx tsc --noEmit -p .

if wants unit; then
  timed unit 120 node --test --test-reporter=spec --test-timeout=30000 out-test/unit/*.test.js
fi
if wants webview; then
  timed webview 240 node --test --test-reporter=spec --test-timeout=60000 out-test/webview/*.test.js
fi
if wants protocol || wants e2e; then
  if [[ ! -x "$PYTHON" ]]; then
    echo "No Python at $PYTHON. Create the repo's venv (python3 -m venv .venv && .venv/bin/pip install -e '.[test]') or set PYTHON." >&2
    exit 1
  fi
fi
if wants protocol; then
  timed protocol 300 node --test --test-reporter=spec --test-timeout=120000 out-test/protocol/*.test.js
fi

# The .vsix is built on every full run so packaging never rots; e2e installs exactly it.
timed package 180 npm run --silent package

if wants e2e; then
  start=$SECONDS
  echo "==> code-server (installed once into ${CODE_SERVER_DIR:-\$HOME/.cache/context-sidecar}, then reused)"
  CODE_SERVER="$(timeout 900 bash scripts/install-code-server.sh | tail -1)"
  SUMMARY+=("$(printf '%-10s ok     %4ss' code-server $((SECONDS - start)))")
  export CODE_SERVER VSIX="$HERE/dist/context-sidecar.vsix"
  timed e2e 900 node --test --test-reporter=spec --test-timeout=600000 out-test/e2e/*.test.js
fi

echo
printf '%s\n' "${SUMMARY[@]}"
