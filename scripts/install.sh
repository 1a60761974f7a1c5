#!/usr/bin/env bash
# Installs the sidecar and its test dependencies into .venv (idempotent).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e ".[test]"
# Byte-compile the sidecar as pip does for an installed package: where writing bytecode at run
# time is turned off (PYTHONDONTWRITEBYTECODE), every start would compile ~400 modules again
# (about 80 ms of each engine's start, and of every sidecar the tests start).
.venv/bin/python -m compileall -q sidecar
.venv/bin/context-sidecar --version
# acpx, a third-party ACP client the end-to-end tests drive `serve --acp` with, pinned by
# tools/acpx/package-lock.json and kept in tools/acpx/node_modules (reinstalled only when the
# lock file changes). Without npm those tests skip.
if command -v npm >/dev/null; then
  if ! { [ -x tools/acpx/node_modules/.bin/acpx ] &&
         cmp -s tools/acpx/package-lock.json tools/acpx/node_modules/.installed-lock; }; then
    # `npm ci` refuses this lock file: acpx's optional per-platform packages for other
    # systems are not all published, so npm leaves them out of it. `install` honours it.
    (cd tools/acpx && npm install --no-save --no-audit --no-fund --ignore-scripts \
       --engine-strict=false --loglevel=error && cp package-lock.json node_modules/.installed-lock)
  fi
  echo "acpx $(tools/acpx/node_modules/.bin/acpx --version)"
else
  echo "npm not found: acpx is not installed and its tests will skip" >&2
fi
