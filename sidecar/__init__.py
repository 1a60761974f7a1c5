"""context-sidecar: keeps long LLM coding sessions alive inside an editor."""

__version__ = "0.1.0"
PROTOCOL_VERSION = 2
