"""The `contextSidecar` settings: one typed model with the seed's defaults.

Sources merge in order (later wins): the user file, the workspace file, the
``CONTEXT_SIDECAR_SETTINGS`` environment variable, then what the editor sends. Invalid
values fall back to the default and leave a warning the server shows to the user.
"""

from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, get_type_hints

from sidecar.contract.version import PROVIDERS
from sidecar.core.environment import env_flag, env_positive_int
from sidecar.core.permissions.modes import MODE_IDS
from sidecar.core.workspace.own_files import read_own_text

SECTION = "contextSidecar"


@dataclass(frozen=True)
class AutoCompact:
    enabled: bool = True
    bufferTokens: int = 13_000
    confirm: bool = False
    maxConsecutiveFailures: int = 3
    # Auto-compactions one prompt may run; past it the turn stops (the context refills
    # faster than compaction can empty it).
    maxPerTurn: int = 3


@dataclass(frozen=True)
class TimeBased:
    enabled: bool = True
    gapMinutes: int = 60
    keepRecent: int = 1


@dataclass(frozen=True)
class StepClearing:
    """Old results of finished turns cleared in one step, frozen, before the context nears
    the auto-compact point (see ``microcompact.step_clearing_candidates``)."""

    enabled: bool = True
    # Considered once the context holds this many tokens, or triggerPercent of the
    # auto-compact point when that is lower (small windows).
    triggerTokens: int = 60_000
    triggerPercent: int = 50
    # The newest results of finished turns kept verbatim, up to this many tokens. A kept
    # result behind a cleared one is written again with the step, so keeping costs; 10,000
    # rather than 20,000 made the peer benchmark's shell runs at 200K 0.65 of Claude Code
    # against 0.71, the corpus replay unchanged (0.7071), with no more re-reads.
    keepTokens: int = 10_000


@dataclass(frozen=True)
class Microcompact:
    timeBased: TimeBased = field(default_factory=TimeBased)
    stepClearing: StepClearing = field(default_factory=StepClearing)


@dataclass(frozen=True)
class ApiContextManagement:
    enabled: bool = True
    triggerTokens: int = 180_000
    keepTokens: int = 40_000


@dataclass(frozen=True)
class PromptCache:
    # Keep one breakpoint on a prefix cached for an hour, moved when the expected pause
    # (five minutes to an hour) would cost more to rewrite than the hour's premium
    # (sidecar.core.accounting.cache_anchor). Anthropic only.
    hourAnchors: bool = True


@dataclass(frozen=True)
class SessionMemory:
    enabled: bool = True
    minTokens: int = 10_000
    minTextBlockMessages: int = 5
    maxTokens: int = 40_000
    initTokens: int = 10_000
    updateTokens: int = 5_000
    updateToolCalls: int = 3
    # The notes serve only an auto-compaction, and each update re-reads the whole context
    # and writes the notes anew: they start at this share of the auto-compact point and are
    # updated at most once per updatePercent of it (updateTokens is the floor of that step).
    # Notes of a session that never compacts are paid for nothing: from 70 % rather than
    # 60 %, the corpus replay billed 0.6978 of its recordings against 0.6991 (spotter-3,
    # which never compacts, 0.717 against 0.722) and the peer benchmark's 60K runs, where
    # every compaction is still served by notes, 4 % less on the edit loop and cache break.
    startPercent: int = 70
    updatePercent: int = 20
    # The kept tail is at most this share of the auto-compact point (and maxTokens), so a
    # session-memory compaction lands well below the point instead of refilling to it in a
    # step or two; in a 200K window the seed's maxTokens is the smaller bound.
    tailPercent: int = 40


@dataclass(frozen=True)
class PostCompact:
    maxFiles: int = 5
    totalTokens: int = 50_000
    perFileTokens: int = 5_000


@dataclass(frozen=True)
class History:
    maxItems: int = 100
    maxPastedContentLength: int = 1024


@dataclass(frozen=True)
class Tools:
    shell: bool = True
    # The memory tool: a folder per workspace the model keeps notes in across conversations.
    memory: bool = True
    # The provider's own web search and web fetch (server tools, run by the provider), where
    # the provider and model offer them (sidecar.tools.web).
    webSearch: bool = True
    webFetch: bool = True
    allow: tuple[str, ...] = ()
    shellOutputChars: int = 30_000
    readMaxLines: int = 2_000
    # The share (percent) of the room left under the auto-compact point that one tool
    # result may take; a larger one is saved to a file and the model gets a preview.
    resultBudgetPercent: int = 50


@dataclass(frozen=True)
class Mcp:
    # A tool call a server has not answered in this long fails with a tool error.
    toolTimeoutSeconds: int = 300
    # A server that has not answered initialize (and listed its tools) in this long failed
    # that attempt.
    startupTimeoutSeconds: int = 30
    # Restarts after a failed start or a crash, in a row, before the server is given up.
    maxRestarts: int = 3
    # Text of one MCP tool result beyond this many characters is cut with a note.
    resultMaxChars: int = 100_000
    # Start the servers a workspace configures itself (.mcp.json) without asking. Read from
    # the user's settings only: a workspace's own settings file cannot set it.
    trustWorkspaceServers: bool = False
    # The MCP tools' definitions may take at most this share (percent) of the context
    # window in a request; the tools past it are left out (whole servers kept first) and
    # /mcp and the servers' status say which and why.
    maxToolDefinitionPercent: int = 10
    # Past that share, "auto" defers the MCP tools' definitions instead of leaving tools out:
    # the model finds them with a tool search (the API's own on Anthropic and the Responses
    # API, the sidecar's ToolSearch tool on Chat Completions; sidecar.core.turns.deferred_tools).
    # "always" defers them
    # whatever their size, "off" never (the tools past the share are then left out).
    toolSearch: str = "auto"
    # A message from a server (one line over stdio, one response over HTTP) larger than
    # this many bytes is refused: the call fails and a stdio server is restarted.
    maxMessageBytes: int = 16_000_000


@dataclass(frozen=True)
class Hooks:
    # Run the hooks a workspace configures itself (its .claude/settings.json and
    # .claude/settings.local.json) even where Claude Code's trust dialog was not accepted
    # for the folder. Read from the user's settings only.
    trustWorkspace: bool = False


@dataclass(frozen=True)
class Tokens:
    # "calibrated" learns bytes per token from consecutive usage anchors; "bytes4" is the
    # seed's 4 bytes per token (2 for JSON); "tiktoken" counts with a real encoding.
    estimator: str = "calibrated"


@dataclass(frozen=True)
class Thinking:
    # "off", "adaptive" (the model decides how much to think) or "budget" (at most
    # budgetTokens). On OpenAI models either turns on reasoning at ``effort``.
    mode: str = "off"
    budgetTokens: int = 8_000
    # low, medium, high, xhigh or max; None leaves the provider's default.
    effort: str | None = None


@dataclass(frozen=True)
class Settings:
    provider: str = "anthropic"
    model: str = "claude-sonnet-5-5"
    baseUrl: str | None = None
    apiKeyEnv: str | None = None
    contextWindow: int | None = None
    maxOutputTokens: int | None = None
    # The most one streamed answer may hold (its text, thinking and tool input, in UTF-8
    # bytes); a request allowing N output tokens gets at most 16 × N of it (four times the
    # answer at 4 bytes a token). Past it the stream is stopped and the answer kept, cut.
    maxAnswerBytes: int = 1_048_576
    compactModel: str | None = None
    # The model of a Task tool's subagent whose definition names none; None: the main
    # session's model.
    subagentModel: str | None = None
    storageDir: str | None = None
    maxTurnRequests: int = 50
    summaryReserveTokens: int = 20_000
    warningBufferTokens: int = 20_000
    errorBufferTokens: int = 20_000
    blockingBufferTokens: int = 3_000
    autoCompact: AutoCompact = field(default_factory=AutoCompact)
    microcompact: Microcompact = field(default_factory=Microcompact)
    apiContextManagement: ApiContextManagement = field(default_factory=ApiContextManagement)
    promptCache: PromptCache = field(default_factory=PromptCache)
    sessionMemory: SessionMemory = field(default_factory=SessionMemory)
    postCompact: PostCompact = field(default_factory=PostCompact)
    history: History = field(default_factory=History)
    tools: Tools = field(default_factory=Tools)
    tokens: Tokens = field(default_factory=Tokens)
    thinking: Thinking = field(default_factory=Thinking)
    # MCP servers in Claude Code's ``.mcp.json`` shape (name -> stdio or http entry), over
    # the workspace's ``.mcp.json``; see sidecar.mcp.config.
    mcpServers: dict[str, Any] = field(default_factory=dict)
    mcp: Mcp = field(default_factory=Mcp)
    # Manual /compact and sidecar/compact; DISABLE_COMPACT turns both kinds off.
    manualCompact: bool = True
    # Who writes a full compaction's summary: "server" (the provider, where it offers
    # server-side compaction; the sidecar otherwise) or "local" (always the sidecar).
    compactionBackend: str = "server"
    # Shell commands run at these events (Claude Code's hooks in .claude/settings.json run
    # as well); each may take hookTimeoutSeconds.
    preCompactHooks: tuple[str, ...] = ()
    postCompactHooks: tuple[str, ...] = ()
    sessionStartHooks: tuple[str, ...] = ()
    hookTimeoutSeconds: int = 60
    hooks: Hooks = field(default_factory=Hooks)
    retry: "Retry" = field(default_factory=lambda: Retry())
    transport: "Transport" = field(default_factory=lambda: Transport())
    permissions: "Permissions" = field(default_factory=lambda: Permissions())


@dataclass(frozen=True)
class Retry:
    maxRetries: int = 4
    baseDelayMs: int = 500
    maxDelayMs: int = 20_000
    timeoutSeconds: int = 600


@dataclass(frozen=True)
class Transport:
    # One message on the wire (a Content-Length body, an ACP line); a pasted image fits.
    maxMessageBytes: int = 64 * 1024 * 1024


@dataclass(frozen=True)
class Permissions:
    # The permission mode a new session starts in (sidecar.core.permissions.modes.MODE_IDS).
    defaultMode: str = "default"



_CHOICES: dict[str, tuple[str, ...]] = {
    "provider": PROVIDERS,
    "tokens.estimator": ("calibrated", "bytes4", "tiktoken"),
    "thinking.mode": ("off", "adaptive", "budget"),
    "thinking.effort": ("low", "medium", "high", "xhigh", "max"),
    "compactionBackend": ("server", "local"),
    "permissions.defaultMode": MODE_IDS,
    "mcp.toolSearch": ("auto", "always", "off"),
}
# Numbers that may be zero; every other int must be positive.
_ZERO_OK = {"microcompact.timeBased.keepRecent", "microcompact.stepClearing.keepTokens",
            "retry.maxRetries", "mcp.maxRestarts"}
# Upper bounds of numbers that have one.
_MAXIMA = {"tools.resultBudgetPercent": 100, "microcompact.stepClearing.triggerPercent": 100}


def _coerce(path: str, hint: Any, value: Any, default: Any, warnings: list[str]) -> Any:
    if dataclasses.is_dataclass(hint):
        if not isinstance(value, Mapping):
            warnings.append(f"setting {SECTION}.{path} must be an object; using defaults")
            return default
        return _build(hint, value, path + ".", warnings, base=default)
    text = str(hint)
    ok: bool
    if hint is bool:
        ok = isinstance(value, bool)
    elif hint is int or text in ("int | None", "typing.Optional[int]"):
        ok = (value is None and "None" in text) or (
            isinstance(value, int) and not isinstance(value, bool)
            and (value > 0 or (value == 0 and path in _ZERO_OK))
            and value <= _MAXIMA.get(path, value)
        )
    elif hint is str or text in ("str | None", "typing.Optional[str]"):
        ok = (value is None and "None" in text) or (isinstance(value, str) and value != "")
        if ok and value is not None and path in _CHOICES and value not in _CHOICES[path]:
            ok = False
    elif text.startswith("dict[str"):
        ok = isinstance(value, Mapping) and all(isinstance(v, Mapping) for v in value.values())
        if ok:
            value = {str(k): dict(v) for k, v in value.items()}
    elif text.startswith("tuple[str"):
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
        if ok:
            value = tuple(value)
    else:
        ok = False
    if not ok:
        choices = f" (one of {', '.join(_CHOICES[path])})" if path in _CHOICES else ""
        warnings.append(
            f"invalid value for {SECTION}.{path}: {json.dumps(value)[:80]}{choices}; "
            f"using the default {json.dumps(default if not isinstance(default, tuple) else list(default))}"
        )
        return default
    return value


def _build(cls: Any, data: Mapping[str, Any], prefix: str, warnings: list[str], base: Any = None) -> Any:
    base = base if base is not None else cls()
    hints = get_type_hints(cls)
    known = {f.name for f in dataclasses.fields(cls)}
    for key in data:
        if key not in known:
            warnings.append(f"unknown setting {SECTION}.{prefix}{key} ignored")
    changes = {
        name: _coerce(prefix + name, hints[name], data[name], getattr(base, name), warnings)
        for name in known
        if name in data
    }
    return dataclasses.replace(base, **changes)


def merge_dicts(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = merge_dicts(out[key], value)
        else:
            out[key] = value
    return out


def parse_settings(data: Mapping[str, Any] | None) -> tuple[Settings, list[str]]:
    warnings: list[str] = []
    if data is None:
        return Settings(), warnings
    if not isinstance(data, Mapping):
        return Settings(), [f"{SECTION} settings must be an object; using defaults"]
    return _build(Settings, data, "", warnings), warnings


def storage_dir(settings: Settings) -> Path:
    """Where transcripts, history and session memory live: the setting, else the
    platform's user data directory."""
    if settings.storageDir:
        return Path(settings.storageDir).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("context-sidecar"))


# The variables the SDKs themselves read for the base URL, when the setting names none.
BASE_URL_ENV = {
    "anthropic": "ANTHROPIC_BASE_URL",
    "openai": "OPENAI_BASE_URL",
    "openai-compatible": "OPENAI_BASE_URL",
}


def resolve_base_url(settings: Settings, environ: Mapping[str, str]) -> str | None:
    """The provider's base URL: the setting, else the SDK's environment variable."""
    return settings.baseUrl or environ.get(BASE_URL_ENV.get(settings.provider, "")) or None


def user_settings_path() -> Path:
    import platformdirs

    return Path(platformdirs.user_config_dir("context-sidecar")) / "settings.json"


def _read_json_file(path: Path, warnings: list[str]) -> dict[str, Any]:
    try:
        text = read_own_text(path, limit=SETTINGS_FILE_MAX_BYTES)
    except FileNotFoundError:
        return {}
    except OSError as exc:
        warnings.append(f"cannot read {path}: {getattr(exc, 'why', None) or exc}; ignored")
        return {}
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        warnings.append(f"{path} is not valid JSON ({exc}); ignored")
        return {}
    if not isinstance(data, dict):
        warnings.append(f"{path} must hold a JSON object; ignored")
        return {}
    return data.get(SECTION, data) if isinstance(data.get(SECTION), dict) else data


SETTINGS_FILE_MAX_BYTES = 1 << 20
# What a workspace's own settings file (which a cloned repository can carry) may set: how
# the context is managed and which model answers. Nothing that picks where the API key goes
# or which variable holds it, where the sidecar writes, a command it runs, a permission, a
# tool's reach, a server or the transport's limits: those come from the user's file, the
# environment or the editor. A dotted name allows one setting, a plain one its whole group.
WORKSPACE_SETTINGS = (
    "model", "compactModel", "subagentModel", "contextWindow", "maxOutputTokens", "maxTurnRequests",
    "summaryReserveTokens", "warningBufferTokens", "errorBufferTokens", "blockingBufferTokens",
    "autoCompact", "microcompact", "apiContextManagement", "promptCache", "sessionMemory",
    "postCompact", "tokens", "thinking", "compactionBackend",
    "tools.shellOutputChars", "tools.readMaxLines", "tools.resultBudgetPercent",
)
WORKSPACE_SETTINGS_FILE = Path(".context-sidecar") / "settings.json"
# The workspace files' refusals already shown: each once per process, not at every
# settings change.
_shown_refusals: set[str] = set()


def _allowed(dotted: str) -> bool:
    return any(dotted == a or dotted.startswith(a + ".") for a in WORKSPACE_SETTINGS)


def _keep_allowed(layer: Mapping[str, Any], prefix: str, refused: list[str]) -> dict[str, Any]:
    """The part of ``layer`` on the allow-list; what is not is named in ``refused``."""
    kept: dict[str, Any] = {}
    for key, value in layer.items():
        dotted = prefix + str(key)
        if _allowed(dotted):
            kept[key] = value
        elif isinstance(value, Mapping) and value:
            inner = _keep_allowed(value, dotted + ".", refused)
            if inner:
                kept[key] = inner
        else:
            refused.append(dotted)
    return kept


def workspace_layer(workspace: str, warnings: list[str]) -> tuple[dict[str, Any], list[str]]:
    """The workspace's settings file, as far as ``WORKSPACE_SETTINGS`` allows, and the
    settings it tried to set beyond that. Its ``mcpServers`` are the workspace's own
    servers, which sidecar.mcp.config reads (to be approved before they start)."""
    path = Path(workspace) / WORKSPACE_SETTINGS_FILE
    layer = _read_json_file(path, warnings)
    layer.pop("mcpServers", None)
    refused: list[str] = []
    kept = _keep_allowed(layer, "", refused)
    if refused:
        text = (f"{path}: {', '.join(refused)} ignored: a workspace's own settings "
                "cannot set them; set them in your user or editor settings")
        if text not in _shown_refusals:
            _shown_refusals.add(text)
            warnings.append(text)
    return kept, refused


def file_and_env_layers(workspace: str | None, warnings: list[str]) -> dict[str, Any]:
    """The first three sources, merged: user file, workspace file, environment."""
    merged: dict[str, Any] = _read_json_file(user_settings_path(), warnings)
    if workspace:
        merged = merge_dicts(merged, workspace_layer(workspace, warnings)[0])
    raw = os.environ.get("CONTEXT_SIDECAR_SETTINGS")
    if raw:
        try:
            env = json.loads(raw)
            if isinstance(env, dict):
                merged = merge_dicts(merged, env)
            else:
                warnings.append("CONTEXT_SIDECAR_SETTINGS must be a JSON object; ignored")
        except json.JSONDecodeError as exc:
            warnings.append(f"CONTEXT_SIDECAR_SETTINGS is not valid JSON ({exc}); ignored")
    return merged


def resolve_settings(
    workspace: str | None, *editor_layers: Mapping[str, Any] | None
) -> tuple[Settings, list[str]]:
    warnings: list[str] = []
    merged = file_and_env_layers(workspace, warnings)
    for layer in editor_layers:
        if isinstance(layer, Mapping):
            merged = merge_dicts(merged, layer)
        elif layer is not None:
            warnings.append(f"{SECTION} settings from the editor must be an object; ignored")
    settings, more = parse_settings(merged)
    return apply_env_overrides(settings, warnings + more)


def apply_env_overrides(settings: Settings, warnings: list[str]) -> tuple[Settings, list[str]]:
    """The seed's environment variable names override settings."""
    s = settings
    if env_flag("DISABLE_AUTO_COMPACT") or env_flag("DISABLE_COMPACT"):
        s = dataclasses.replace(s, autoCompact=dataclasses.replace(s.autoCompact, enabled=False))
    if env_flag("DISABLE_COMPACT"):  # the seed's switch turns compaction off entirely
        s = dataclasses.replace(s, manualCompact=False)
    if env_flag("DISABLE_CLAUDE_CODE_SM_COMPACT"):
        s = dataclasses.replace(s, sessionMemory=dataclasses.replace(s.sessionMemory, enabled=False))
    if env_flag("ENABLE_CLAUDE_CODE_SM_COMPACT"):
        s = dataclasses.replace(s, sessionMemory=dataclasses.replace(s.sessionMemory, enabled=True))
    max_out = env_positive_int("CLAUDE_CODE_MAX_OUTPUT_TOKENS", warnings)
    if max_out is not None:
        s = dataclasses.replace(s, maxOutputTokens=max_out)
    return s, warnings
