"""The user's answer to a permission request, as the engine reads it, and what the model is
told of a rejection.

Clients answer ``session/request_permission`` with the option they picked; with a rejection
they may add the user's reason in ``outcome._meta.sidecar.reason`` (docs/protocol.md). Both
transports read the answer here, so an option that was not offered means the same everywhere.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

# A reason longer than this is cut: it is a sentence for the model, not a document.
REASON_LIMIT = 2_000
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PermissionChoice:
    """The user's answer to ``session/request_permission``: the option picked ("cancelled"
    when the request was withdrawn) and, with a rejection, what they said about why."""

    option_id: str
    reason: str | None = None


def read_permission_result(result: object, options: list[dict[str, str]]) -> PermissionChoice:
    """The choice in a client's answer; an option the request did not offer is a rejection."""
    outcome = result.get("outcome") if isinstance(result, dict) else None
    if not isinstance(outcome, dict) or outcome.get("outcome") != "selected":
        return PermissionChoice("cancelled")
    chosen = outcome.get("optionId")
    if not any(o["optionId"] == chosen for o in options):
        log.warning("the client chose an option it was not offered (%r); rejecting", chosen)
        return PermissionChoice("reject_once")
    meta = outcome.get("_meta")
    ours = meta.get("sidecar") if isinstance(meta, dict) else None
    reason = ours.get("reason") if isinstance(ours, dict) else None
    text = reason.strip()[:REASON_LIMIT] if isinstance(reason, str) else ""
    return PermissionChoice(str(chosen), text or None)


def refusal(text: str, choice: PermissionChoice) -> str:
    """What the model reads of a rejection: ``text``, then the user's own words when they
    gave a reason, so the model can do what they asked instead."""
    if not choice.reason:
        return text
    return f"{text.rstrip('.')}. The user said: {choice.reason}"
