"""MCP servers a session's model may use: configured as Claude Code configures them
(``.mcp.json`` and the ``mcpServers`` setting), started off the start-up path, supervised,
their tools offered as ``mcp__<server>__<tool>``."""
