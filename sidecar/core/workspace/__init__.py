"""What a workspace contributes to the prompt (CLAUDE.md files, git, skills, hooks), read as untrusted input until the folder is trusted."""
