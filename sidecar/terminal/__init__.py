"""The terminal client (``context-sidecar chat``) and the offline demo (``context-sidecar demo``).

Both start the real sidecar as a child process and speak the wire protocol to it over
stdio, exactly as an editor does.
"""
