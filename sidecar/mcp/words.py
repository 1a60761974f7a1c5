"""A server's state as the user reads it: what it means and what can be done about it.

``status`` (starting, connected, failed, stopped) is the connection's; a workspace server
held back is ``failed`` there with its reason as the error, which read as a fault. ``state``
tells the holds apart, ``label`` says it in words, and ``actions`` are the buttons a client
offers (``sidecar/mcpAction``): every client shows the same words.
"""

from __future__ import annotations

from typing import Literal

from sidecar.mcp.approval import REJECTED, RESTRICTED, WAITING

State = Literal["waiting", "rejected", "untrusted", "starting", "connected", "failed", "stopped"]
Action = Literal["approve", "reject", "retry"]


def state_of(status: str, held: str | None) -> State:
    """The state of a server whose connection is ``status`` and that is ``held`` (why it may
    not start yet, or None)."""
    if held == WAITING:
        return "waiting"
    if held == RESTRICTED:
        return "untrusted"
    if held is not None and held.startswith(REJECTED):
        return "rejected"
    if status in ("starting", "connected", "failed", "stopped"):
        return status  # type: ignore[return-value]
    return "failed"


def _tools(count: int) -> str:
    return f"{count} tool{'' if count == 1 else 's'}"


def label(state: State, *, error: str | None = None, tools: int = 0,
          offered: int | None = None) -> str:
    """What the state means, in words (no buttons: ``actions`` names those)."""
    if state == "waiting":
        return "waiting for your approval"
    if state == "untrusted":
        return "not used: the folder is not trusted"
    if state == "rejected":
        return "rejected for this workspace"
    if state == "starting":
        return "connecting…"
    if state == "connected":
        text = f"connected · {_tools(tools)}"
        if offered is not None and offered != tools:
            text += f", {offered} offered to the model"
        return text
    if state == "stopped":
        return "stopped"
    return f"failed: {error}" if error else "failed"


def actions(state: State, *, can_start: bool = True) -> list[Action]:
    """What the user can do about it: approve or reject a workspace server waiting, approve
    one rejected, retry one that failed (not one whose configuration is wrong)."""
    if state == "waiting":
        return ["approve", "reject"]
    if state == "rejected":
        return ["approve"]
    if state == "failed" and can_start:
        return ["retry"]
    return []
