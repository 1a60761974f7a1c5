"""What the context-management tiers may use of the session they keep inside its window.

The tiers receive this narrow view instead of the whole session: its records, its token
ledger and thresholds, its settings, a way to call the model, and one way to commit a new
context. The session implements it; nothing here imports the session, so the session can
import the tiers without a cycle.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Protocol

if TYPE_CHECKING:
    from pathlib import Path

    from sidecar.contract.results import Gauge
    from sidecar.contract.updates import SessionUpdate
    from sidecar.core.accounting.tokens import TokenLedger
    from sidecar.core.accounting.window import Thresholds
    from sidecar.core.conversation.file_state import FileReadState
    from sidecar.core.conversation.messages import Message
    from sidecar.core.conversation.transcript import Transcript
    from sidecar.core.ports import Editor, ModelDescription, Provider, Tool
    from sidecar.core.settings import Settings
    from sidecar.core.turns.request_labels import Cause
    from sidecar.core.turns.requests import SessionRequests
    from sidecar.core.workspace.trust import Trust


class PlanState(Protocol):
    """The permission state the tiers read (``SessionPermissions`` implements it)."""

    mode: str
    planned: bool

    def plan_file(self) -> Path | None:
        """Where the session's plan is written (None without storage)."""


class CompactionHost(Protocol):
    settings: Settings
    thresholds: Thresholds
    ledger: TokenLedger
    editor: Editor
    file_state: FileReadState
    transcript: Transcript
    clock: Callable[[], float]
    tools: list[Tool]
    # How its requests are built (a summary's too), labelled and led by the project's rules.
    requests: SessionRequests
    # Whether the folder is trusted (blocking): its own hooks run around a compaction only then.
    workspace_trust: Callable[[], Trust]

    @property
    def id(self) -> str: ...

    @property
    def permissions(self) -> PlanState:
        """The permission mode, and whether the session has been in plan mode (its plan
        follows a compaction's summary)."""

    def estimate(self, records: list[Message]) -> int:
        """Tokens of a would-be context: the prefix plus these records."""

    def prefix_parts(self) -> dict[str, int]: ...

    def append(self, message: Message) -> Message:
        """Add one record (a hook's run) to the transcript."""

    def record_clearing(self, ids: list[str], kind: str) -> None:
        """Freeze a microcompact decision in the transcript."""

    def commit(self, records: list[Message]) -> None:
        """Append a compaction's records and start the context over from them."""

    def update(self, payload: SessionUpdate) -> None:
        """A ``session/update`` to the editor."""

    def send_usage_update(self) -> Gauge: ...

    def rewrite(self, cause: Cause) -> None:
        """Note a named cause of a change to what the next request repeats."""

    def described(self, model: str | None = None) -> ModelDescription | None:
        """What the provider's models endpoint said of a model (the session's by default)."""

    def provider_for(self, model: str | None = None) -> Provider:
        """The session's provider, or one for another model of it (a cheaper summarizer)."""
