"""The first prompt in VS Code against later ones, in code-server with the packaged extension.

Builds the extension and its test programs, installs code-server as the VS Code tests do,
then runs ``vscode-extension/test/bench/firstPrompt.ts`` (what it measures is described
there): Enter in the chat's box to the answer's first words in the panel, for a first prompt
typed into a window that just opened, one pasted the moment the box takes it, and the
prompts after them. Skips, saying why, where node, npm or Chromium is missing.

Run: python tests/bench/bench_vscode_first_prompt.py [runs of each kind, default 3]
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.bench.figures import REPO_ROOT, header  # noqa: E402

EXTENSION = REPO_ROOT / "vscode-extension"


def main(argv: list[str]) -> int:
    runs = argv[1] if len(argv) > 1 else "3"
    header(f"bench_vscode_first_prompt: Enter -> first words in the panel, {runs} runs of each kind")
    missing = [tool for tool in ("node", "npm", "chromium") if shutil.which(tool) is None]
    if missing or not (EXTENSION / "node_modules").is_dir():
        print(f"   skipped: {', '.join(missing) or 'vscode-extension/node_modules'} not found")
        return 0

    def step(*command: str) -> str:
        done = subprocess.run(command, cwd=EXTENSION, capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")
        return done.stdout

    step("node", "scripts/build.mjs", "--tests")
    step("npm", "run", "--silent", "package")
    code_server = step("bash", "scripts/install-code-server.sh").strip().splitlines()[-1]
    env = dict(os.environ, CODE_SERVER=code_server, VSIX=str(EXTENSION / "dist" / "context-sidecar.vsix"),
               PYTHON=sys.executable)
    return subprocess.run(["node", "out-test/bench/firstPrompt.js", runs], cwd=EXTENSION, env=env,
                          timeout=1200).returncode


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
