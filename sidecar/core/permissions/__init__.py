"""What a tool call may do in each permission mode, plan mode's words and its read-only shell."""
