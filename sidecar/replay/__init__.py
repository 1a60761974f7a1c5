"""Replay: a recorded session (Claude Code's or ours) driven through the real engine offline.

``context-sidecar replay FILE_OR_DIR [--chart out.svg] [--json]`` shows when each tier of
context management would fire, the context over time, and the billed tokens with prompt
caching against what the recording really spent.
"""
