"""Subagent definitions in Claude Code's layout: ``.claude/agents/*.md`` in the workspace and
in the user's home, each a YAML front matter (``name``, ``description``, optional ``tools``,
a comma-separated list of tool names, and ``model``) and a markdown body, the subagent's
system prompt. The built-in ``general-purpose`` agent always exists.

A workspace's agents are the repository author's words to the model: like its hooks, they
apply only in a trusted folder. The user's own apply everywhere. A definition of a name
found earlier wins (the workspace's over the user's, either over the built-in one).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sidecar.core.workspace.skills import parse_front_matter

AgentSource = Literal["workspace", "user", "built-in"]
GENERAL_PURPOSE = "general-purpose"
# An agent file larger than this is no system prompt anyone means to send.
MAX_AGENT_BYTES = 256 * 1024

GENERAL_PURPOSE_PROMPT = (
    "You are a subagent working for a coding assistant in the user's code editor. You were "
    "handed one task: research it, search the code, read what matters, and do it. Use the "
    "tools you have; find code with Glob and Grep rather than guessing paths.\n\n"
    "When you are done, answer with a concise report: it is the only thing the assistant "
    "that handed you the task will read of your work. Give the facts it needs (file paths, "
    "names, what you found or changed) and nothing else."
)


@dataclass(frozen=True)
class AgentDefinition:
    name: str
    description: str
    prompt: str  # the system prompt
    source: AgentSource
    # Tool names it may use; None: the read-only tools.
    tools: tuple[str, ...] | None = None
    model: str | None = None
    path: Path | None = None


BUILT_IN = AgentDefinition(
    name=GENERAL_PURPOSE,
    description=("General-purpose agent for researching complex questions, searching for code "
                 "and carrying out multi-step tasks; use it when a search may take several "
                 "tries, so that only its report enters this conversation."),
    prompt=GENERAL_PURPOSE_PROMPT,
    source="built-in",
)


# The family names Claude Code's agent files give as ``model``.
MODEL_ALIASES = ("opus", "sonnet", "haiku")


def agent_model(agent: AgentDefinition, provider: str) -> str | None:
    """The model ``agent`` names: an alias (``sonnet``) is the newest of that family the
    catalog knows, on Anthropic; elsewhere an alias names nothing (None)."""
    from sidecar.core.models.catalog import ANTHROPIC_MODELS

    if agent.model not in MODEL_ALIASES:
        return agent.model
    if provider != "anthropic":
        return None
    return next((m for m in ANTHROPIC_MODELS if m.startswith(f"claude-{agent.model}-")), None)


def agent_roots(cwd: Path, home: Path, workspace_trusted: bool) -> list[tuple[Path, AgentSource]]:
    """Where definitions live, the workspace's first (only when it is trusted)."""
    roots: list[tuple[Path, AgentSource]] = []
    if workspace_trusted:
        roots.append((cwd / ".claude" / "agents", "workspace"))
    roots.append((home / ".claude" / "agents", "user"))
    return roots


def read_agent(path: Path, source: AgentSource, within: Path | None = None) -> AgentDefinition | None:
    """One agent file, or None when it is unreadable, too large, names no description, or
    resolves (symlinks followed) outside ``within``."""
    from sidecar.core.workspace.own_files import read_own_bytes

    try:
        raw = read_own_bytes(path, None if within is None else [within], limit=MAX_AGENT_BYTES)
    except OSError:
        return None
    fields, body = parse_front_matter(raw.decode("utf-8", errors="replace"))
    name = (fields.get("name") or path.stem).strip()
    description = (fields.get("description") or "").strip()
    if not name or not description:
        return None
    tools = fields.get("tools")
    names = tuple(t.strip() for t in tools.split(",") if t.strip()) if tools else None
    model = (fields.get("model") or "").strip() or None
    if model == "inherit":
        model = None
    return AgentDefinition(name=name, description=description, prompt=body.strip(),
                           source=source, tools=names or None, model=model, path=path)


def discover_agents(cwd: Path, home: Path, workspace_trusted: bool) -> list[AgentDefinition]:
    """Every agent that applies, by name: the built-in one first, then the rest by name.
    Blocking: call it off the event loop."""
    found: dict[str, AgentDefinition] = {}
    for root, source in agent_roots(cwd, home, workspace_trusted):
        try:
            entries = sorted(root.glob("*.md")) if root.is_dir() else []
        except OSError:
            continue
        for entry in entries:
            agent = read_agent(entry, source, cwd if source == "workspace" else None)
            if agent is not None and agent.name not in found:
                found[agent.name] = agent
    found.setdefault(GENERAL_PURPOSE, BUILT_IN)
    return sorted(found.values(), key=lambda a: (a.name != GENERAL_PURPOSE, a.name))


def listing(agents: list[AgentDefinition]) -> str:
    """The agents as the Task tool's description lists them."""
    return "\n".join(f"- {a.name}: {a.description}" for a in agents)
