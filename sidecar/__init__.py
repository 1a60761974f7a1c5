"""context-sidecar: keeps long LLM coding sessions alive inside an editor."""

from __future__ import annotations

# Every start of ``serve`` imports this package twice (the first interpreter hands its
# environment over and replaces itself), so it imports nothing, not even ``typing``: the
# protocol version is loaded on first use.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from sidecar.contract.version import PROTOCOL_VERSION

__version__ = "0.1.0"
__all__ = ["PROTOCOL_VERSION", "__version__"]


def __getattr__(name: str) -> int:
    if name == "PROTOCOL_VERSION":
        from sidecar.contract.version import PROTOCOL_VERSION

        return PROTOCOL_VERSION
    raise AttributeError(f"module 'sidecar' has no attribute {name!r}")
