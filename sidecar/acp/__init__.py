"""The ACP transport: ACP v1 (newline-delimited JSON-RPC over stdio) over the session service."""
