"""``/rewind`` and ``/fork`` as text, for clients without a picker of their own."""

from __future__ import annotations

from pathlib import Path

from sidecar.contract.results import Rewound
from sidecar.core.checkpoints.records import CheckpointState

USAGE = "/rewind N [both|conversation|code] goes back to before prompt N; /fork [N] forks there"
ACTIONS = {"restore": "restored", "delete": "deleted (the turn created it)",
           "unchanged": "already as it was",
           "conflict": "left alone: changed since by someone else (/rewind N code force)"}


def _name(path: str, cwd: str) -> str:
    try:
        return str(Path(path).relative_to(cwd))
    except ValueError:
        return path


def render_checkpoints(states: list[CheckpointState], cwd: str) -> str:
    if not states:
        return "No checkpoints yet: one is taken before each prompt."
    lines = [f"Checkpoints ({USAGE}):"]
    for number, state in enumerate(states, 1):
        prompt = " ".join(state.prompt.split())
        prompt = prompt if len(prompt) <= 70 else prompt[:69] + "…"
        what = [f"{_name(f.path, cwd)}{' (created)' if f.blob is None else ''}"
                for f in state.files.values()]
        shell = f"; shell, not restorable: {', '.join(state.commands)}" if state.commands else ""
        changed = f" — {', '.join(what)}" if what else ""
        lines.append(f"{number}. {state.at[11:16]} \"{prompt}\"{changed}{shell}")
    return "\n".join(lines)


def render_rewound(done: Rewound, cwd: str) -> str:
    lines = []
    if done["conversation"]:
        lines.append(f"Conversation rewound to before: \"{done['prompt']}\"")
    for file in done["files"]:
        lines.append(f"- {_name(file['path'], cwd)}: {ACTIONS[file['action']]}")
    if done["commands"]:
        lines.append("Not undone (shell commands): " + "; ".join(done["commands"]))
    if not lines:
        lines.append("Nothing to restore.")
    return "\n".join(lines)
