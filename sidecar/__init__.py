"""context-sidecar: keeps long LLM coding sessions alive inside an editor."""

from sidecar.contract.version import PROTOCOL_VERSION

__version__ = "0.1.0"
__all__ = ["PROTOCOL_VERSION", "__version__"]
