#!/usr/bin/env bash
# Runs every test suite: Python unit and end-to-end (with headless Neovim), then the
# VS Code extension's layers (unit, webview in Chromium, protocol, real VS Code).
set -euo pipefail
cd "$(dirname "$0")/.."
export PYTHONUNBUFFERED=1
status=0
# Undefined names, unused imports and the like: cheap, and they hide real mistakes.
.venv/bin/ruff check --select F sidecar tests || status=$?
# Types across the package, and no dead code in it (hooks a framework calls by name are
# listed in tests/dead_code_allowed.py, each with who calls it). camelCase names are the
# wire's: fields of the contract's message shapes, which the clients read.
.venv/bin/mypy sidecar || status=$?
.venv/bin/vulture sidecar tests/dead_code_allowed.py --min-confidence 60 \
  --ignore-names '*[a-z][A-Z]*' --ignore-decorators '@server.feature' || status=$?
# Most of the suite waits on processes (the sidecar, the fake, Neovim, acpx): four workers
# keep two cores busy while each waits. A file's tests stay on one worker, so its shared
# servers are shared; files go out in collection order (tests/conftest.py puts the ones that
# start processes first), not xdist's by-test-count order that leaves slow one-test files last.
.venv/bin/python -m pytest -q -p no:cacheprovider -n "${PYTEST_WORKERS:-4}" --dist loadfile \
  --no-loadscope-reorder tests || status=$?
if [ "${SKIP_VSCODE:-}" != "1" ]; then
  PYTHON="$PWD/.venv/bin/python" bash vscode-extension/scripts/test.sh || status=$?
fi
exit $status
