"""The variable that names the pipe a re-executed sidecar reads its environment from.

Kept apart so that the first interpreter, which only hands the environment over and
replaces itself, loads nothing else of the engine (``sidecar.credentials``).
"""

HANDOFF_ENV = "CONTEXT_SIDECAR_ENV_FD"
