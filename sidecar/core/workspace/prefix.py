"""The memoized context prefix of a workspace: system prompt, git snapshot, CLAUDE.md files.

The prefix is built once per workspace and reused for every request, so the provider's
prompt cache keeps hitting. A change the watchers report does not rewrite it: the change is
recorded and each session receives it once, as an attachment appended to its history, until
compaction, /clear or resume calls ``rebuild``.
"""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sidecar.core.accounting.tokens import SeedBytes, TextCounter
from sidecar.core.conversation.messages import Block, Message
from sidecar.core.environment import env_flag
from sidecar.core.process_groups import new_group_options
from sidecar.core.secrets.held_keys import child_environment
from sidecar.core.settings import Settings
from sidecar.core.workspace import safe_git
from sidecar.core.workspace.own_files import RefusedFile, is_own_file, read_own_text
from sidecar.core.workspace.skills import Skill, change_text, discover_skills, skill_roots

log = logging.getLogger(__name__)

GIT_STATUS_MAX_CHARS = 2_000
GIT_TIMEOUT_SECONDS = 5.0
SNAPSHOT_NOTE = (
    "This is the git status at the start of the conversation. It is a snapshot and will "
    "not update during the conversation."
)
TRUNCATION_NOTE = (
    "... (status truncated at 2,000 characters; run `git status` with the Bash tool to see "
    "all of it)"
)
CLAUDE_MD_HEADER = (
    "The instructions below come from the user and from this codebase. They take precedence "
    "over your default behaviour: follow them exactly as written."
)
CONTEXT_INTRO = "The following context may be used while you answer the user:"
CONTEXT_OUTRO = (
    "This context may or may not matter for the task at hand; act on it only when it is "
    "clearly relevant."
)


# ----- git ------------------------------------------------------------------------------


@dataclass(frozen=True)
class GitRepo:
    toplevel: Path
    git_dir: Path  # HEAD and index live here (per worktree)
    common_dir: Path  # refs and packed-refs live here (shared by worktrees)


@dataclass(frozen=True)
class GitSnapshot:
    branch: str
    main_branch: str
    user: str | None
    status: str
    commits: str
    head: str

    def status_text(self) -> str:
        if not self.status:
            return "(clean)"
        if len(self.status) > GIT_STATUS_MAX_CHARS:
            return self.status[:GIT_STATUS_MAX_CHARS] + "\n" + TRUNCATION_NOTE
        return self.status

    def render(self) -> str:
        parts = [SNAPSHOT_NOTE, f"Current branch: {self.branch}",
                 f"Main branch (you will usually use this for pull requests): {self.main_branch}"]
        if self.user:
            parts.append(f"Git user: {self.user}")
        parts.append(f"Status:\n{self.status_text()}")
        parts.append(f"Recent commits:\n{self.commits or '(no commits yet)'}")
        return "\n\n".join(parts)

    def render_change(self) -> str:
        return (
            "The git state of the workspace changed since the conversation started (the git "
            "status in the system prompt is older). It is now:\n\n"
            f"Current branch: {self.branch}\n\nStatus:\n{self.status_text()}\n\n"
            f"Recent commits:\n{self.commits or '(no commits yet)'}"
        )


def _git_env(cwd: Path, timeout: float) -> dict[str, str]:
    # No keys, and none of the programs the repository's config names (fsmonitor, hooks,
    # filters, textconv, ...): sidecar.core.workspace.safe_git says which overrides keep them out.
    return safe_git.environment(child_environment(), [cwd], timeout)


def run_git(cwd: Path, commands: dict[str, list[str]],
            timeout: float = GIT_TIMEOUT_SECONDS) -> dict[str, str | None]:
    """Run git commands in parallel; a failing, missing or slow command gives None. They
    run with the overrides of ``sidecar.core.workspace.safe_git``: the repository's config starts
    nothing."""
    from sidecar.core.secrets.redaction import redact_api_keys

    procs: dict[str, subprocess.Popen[bytes] | None] = {}
    env = _git_env(cwd, timeout)
    for key, args in commands.items():
        try:
            procs[key] = subprocess.Popen(
                ["git", "--no-optional-locks", *args], cwd=cwd, env=env,
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                # Its own process group, so a timeout also ends helpers git started (hooks,
                # fsmonitor) that would otherwise hold the output pipe open.
                **new_group_options(),
            )
        except OSError as exc:
            log.debug("git %s failed to start: %s", args[0], exc)
            procs[key] = None
    deadline = time.monotonic() + timeout
    results: dict[str, str | None] = {}
    for key, proc in procs.items():
        if proc is None:
            results[key] = None
            continue
        try:
            out, _ = proc.communicate(timeout=max(0.01, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            safe_git.stop(proc)
            log.warning("git %s timed out after %.1fs", commands[key][0], timeout)
            results[key] = None
            continue
        text = out.decode("utf-8", "replace").rstrip("\n") if proc.returncode == 0 else None
        # Status and log go into the system prompt: a key in a commit message must not.
        results[key] = redact_api_keys(text) if text is not None else None
    return results


def find_repo(cwd: Path, timeout: float = GIT_TIMEOUT_SECONDS) -> GitRepo | None:
    """The repository ``cwd`` is in; None outside one, and when its work tree is not
    ``cwd`` or a folder above it (a ``core.worktree`` pointing elsewhere: its files are
    not this workspace's)."""
    out = run_git(cwd, {"where": ["rev-parse", "--show-toplevel", "--absolute-git-dir",
                                  "--git-common-dir"]}, timeout)["where"]
    lines = out.splitlines() if out else []
    if len(lines) < 3:
        return None
    if not safe_git.is_above(lines[0], cwd):
        log.warning("git work tree %s is not above %s; no git snapshot", lines[0], cwd)
        return None
    common = Path(lines[2])
    if not common.is_absolute():
        common = Path(os.path.normpath(cwd / common))
    return GitRepo(Path(lines[0]), Path(lines[1]), common)


def git_snapshot(cwd: Path, timeout: float = GIT_TIMEOUT_SECONDS) -> GitSnapshot:
    r = run_git(cwd, {
        "branch": ["branch", "--show-current"],
        "head": ["rev-parse", "--short", "HEAD"],
        "origin": ["rev-parse", "--abbrev-ref", "origin/HEAD"],
        "locals": ["for-each-ref", "--format=%(refname:short)", "refs/heads/main",
                   "refs/heads/master"],
        "status": ["status", "--short"],
        "log": ["log", "--oneline", "-n", "5"],
        "user": ["config", "user.name"],
    }, timeout)
    head = (r["head"] or "").strip()
    branch = (r["branch"] or "").strip() or (f"HEAD (detached at {head})" if head else "HEAD")
    origin = (r["origin"] or "").strip()
    local = (r["locals"] or "").split()
    if origin and origin != "origin/HEAD":
        main = origin.removeprefix("origin/")
    else:
        main = "main" if "main" in local else "master" if "master" in local else "main"
    return GitSnapshot(branch=branch, main_branch=main, user=(r["user"] or "").strip() or None,
                       status=r["status"] or "", commits=r["log"] or "", head=head)


# ----- CLAUDE.md files ----------------------------------------------------------------------

MAX_INCLUDE_DEPTH = 5
# A memory file larger than this is not read (it would fill any window).
MEMORY_FILE_MAX_BYTES = 4 << 20
# All memory files together are cut at this many characters (about 50K tokens), so that a
# repository's CLAUDE.md cannot leave a session no room: it is in every request, and
# neither a compaction nor /clear can make it smaller.
MEMORY_TOTAL_MAX_CHARS = 200_000
MEMORY_CUT_NOTE = ("\n\n[The memory files were cut here: together they exceed {limit:,} "
                   "characters. Keep CLAUDE.md files short.]")
LARGE_MEMORY_FILE_CHARS = 40_000
KIND_TEXT = {
    "user": "the user's private instructions for all projects",
    "project": "project instructions, checked into the codebase",
    "local": "the user's private instructions for this project, not checked in",
}
# Only text is worth injecting; an @mention of a binary would flood the prompt.
TEXT_SUFFIXES = frozenset({
    ".md", ".markdown", ".mdx", ".txt", ".rst", ".adoc", ".org", ".json", ".jsonc", ".yaml",
    ".yml", ".toml", ".ini", ".cfg", ".conf", ".env", ".xml", ".html", ".css", ".scss", ".csv",
    ".sql", ".graphql", ".proto", ".py", ".pyi", ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs",
    ".go", ".rs", ".java", ".kt", ".kts", ".scala", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs",
    ".rb", ".php", ".swift", ".m", ".lua", ".sh", ".bash", ".zsh", ".fish", ".ps1", ".r", ".jl",
    ".ex", ".exs", ".erl", ".hs", ".ml", ".clj", ".dart", ".vue", ".svelte", ".tf", ".nix",
    ".gradle", ".cmake", ".mk", ".dockerfile", ".gitignore",
})
_FRONTMATTER = re.compile(r"\A\ufeff?---[ \t]*\n.*?^---[ \t]*$\n?", re.DOTALL | re.MULTILINE)
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,})[^\n]*\n.*?^[ \t]*\1[ \t]*$", re.DOTALL | re.MULTILINE)
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
_MENTION = re.compile(r"(?:^|(?<=\s))@((?:[^\s\\]|\\ )+)")


@dataclass(frozen=True)
class MemoryFile:
    path: Path
    kind: str  # user | project | local
    content: str  # as injected: frontmatter and HTML comments stripped, trimmed
    parent: Path | None = None  # the file whose @include brought it in


def memory_slots(cwd: Path, home: Path) -> list[tuple[list[Path], str]]:
    """Candidate files in load order (later wins); in a slot the first existing one is used."""
    slots: list[tuple[list[Path], str]] = [([home / ".claude" / "CLAUDE.md"], "user")]
    for d in [*reversed(cwd.parents), cwd]:
        slots.append(([d / "AGENTS.md", d / "CLAUDE.md"], "project"))
        slots.append(([d / ".claude" / "CLAUDE.md"], "project"))
        slots.append(([d / "CLAUDE.local.md"], "local"))
    return slots


def memory_locations(cwd: Path, home: Path) -> list[Path]:
    return [p for paths, _ in memory_slots(cwd, home) for p in paths]


def _outside_code(text: str, fn: Callable[[str], str]) -> str:
    out, pos = [], 0
    for m in _FENCE.finditer(text):
        out += [fn(text[pos:m.start()]), m.group(0)]
        pos = m.end()
    out.append(fn(text[pos:]))
    return "".join(out)


def clean_memory_text(raw: str) -> str:
    return _outside_code(_FRONTMATTER.sub("", raw, count=1), lambda s: _COMMENT.sub("", s)).strip()


def include_targets(text: str, base: Path, home: Path) -> list[Path]:
    """`@path` mentions outside code: relative to the file, `~/` or absolute."""
    found: list[Path] = []

    def scan(chunk: str) -> str:
        for m in _MENTION.finditer(_INLINE_CODE.sub(" ", chunk)):
            # Trailing punctuation belongs to the sentence, not to the path.
            raw = m.group(1).split("#", 1)[0].replace("\\ ", " ").rstrip(".,;:!?)]")
            if raw.startswith("~/"):
                p = home / raw[2:]
            elif raw.startswith("/") and len(raw) > 1:
                p = Path(raw)
            elif raw.startswith("./") or re.match(r"[A-Za-z0-9._-]", raw):
                p = base / raw
            else:
                continue
            if p.suffix == "" or p.suffix.lower() in TEXT_SUFFIXES:
                found.append(Path(os.path.normpath(p)))
        return chunk

    _outside_code(text, scan)
    return found


def _slot_folder(path: Path) -> Path:
    """The folder a memory file belongs to (``d`` for ``d/CLAUDE.md`` and ``d/.claude/CLAUDE.md``)."""
    folder = path.parent
    return folder.parent if folder.name == ".claude" else folder


def discover_memory_files(cwd: Path, home: Path, roots: tuple[Path, ...]) -> list[MemoryFile]:
    """Every memory file in load order, each followed by what it includes.

    A project file is read only where it resolves (symlinks followed) inside the workspace
    (``roots``), or, for one in a folder above the workspace, inside that folder; its
    includes only inside the workspace. The user's own file, and what it includes, may lie
    anywhere: the user chose it.
    """
    seen: set[str] = set()
    out: list[MemoryFile] = []
    room = [MEMORY_TOTAL_MAX_CHARS]

    def load(path: Path, kind: str, depth: int, parent: Path | None,
             within: tuple[Path, ...] | None) -> None:
        key, real = os.path.normpath(path), os.path.realpath(path)
        if depth >= MAX_INCLUDE_DEPTH or key in seen or real in seen or room[0] <= 0:
            return
        seen.update((key, real))
        try:
            text = clean_memory_text(read_own_text(path, within, limit=MEMORY_FILE_MAX_BYTES))
        except RefusedFile as exc:
            log.warning("memory file %s not read: %s", path, exc.why)
            return
        except (OSError, ValueError):
            return
        if len(text) > LARGE_MEMORY_FILE_CHARS:
            log.warning("%s holds %d characters; large memory files crowd the context",
                        path, len(text))
        if len(text) > room[0]:
            log.warning("%s cut: the memory files exceed %d characters", path, MEMORY_TOTAL_MAX_CHARS)
            text = text[:room[0]] + MEMORY_CUT_NOTE.format(limit=MEMORY_TOTAL_MAX_CHARS)
            room[0] = 0
        else:
            room[0] -= len(text)
        if text:
            out.append(MemoryFile(path, kind, text, parent))
        for target in include_targets(text, path.parent, home):
            allowed = None if kind == "user" else roots
            if is_own_file(target, allowed):
                load(target, kind, depth + 1, path, allowed)
            elif os.path.lexists(target):
                log.warning("%s not included from %s: it resolves outside the workspace "
                            "or is not a regular file", target, path)

    for candidates, kind in memory_slots(cwd, home):
        chosen = next((p for p in candidates if p.is_file()), None)
        if chosen is None:
            continue
        if kind == "user":
            load(chosen, kind, 0, None, None)
        else:
            inside_roots = any(r == chosen or r in chosen.parents for r in roots)
            load(chosen, kind, 0, None, roots if inside_roots else (_slot_folder(chosen),))
    return out


# ----- the memo ---------------------------------------------------------------------------


def base_prompt(cwd: Path) -> str:
    # The tools are not listed here: their definitions are in every request already.
    return (
        "You are a coding assistant working inside the user's code editor. You help with "
        "software engineering in the workspace at "
        f"{cwd}: reading and explaining code, fixing bugs, writing, refactoring and testing.\n\n"
        "Look before you change: read a file before editing "
        "it, and find code with Glob and Grep rather than guessing paths.\n\n"
        "Write file paths relative to the workspace root unless the user gives absolute ones.\n\n"
        "Be concise and direct. Skip preambles and recaps; show code only where it helps; when "
        "a task is done, say in a sentence or two what changed. When you are unsure how "
        "something works, check the code instead of inventing it.\n\n"
        f"Platform: {sys.platform}"
    )


@dataclass
class _Memo:
    system: list[Block]
    user_text: str
    files: list[MemoryFile]
    repo: GitRepo | None
    git: GitSnapshot | None


@dataclass(frozen=True)
class PrefixView:
    """The prefix one session sends: taken when it starts, and again only at a compaction or
    /clear, so another session's rebuild never changes what this one repeats."""

    system: list[Block]
    user_text: str
    files: list[MemoryFile]
    seq: int  # the last change record already part of it

    def user_context(self) -> Message | None:
        if not self.user_text:
            return None
        return Message(kind="user", content=[{"type": "text", "text": self.user_text}],
                       is_meta=True)

    def parts(self, counter: TextCounter) -> dict[str, int]:
        """Token estimates: the system blocks and the user-context message."""
        system = sum(counter.text(str(b.get("text", ""))) for b in self.system)
        return {"system": round(system), "memoryFiles": round(counter.text(self.user_text))}

    def memory_files(self, counter: TextCounter | None = None) -> list[dict[str, Any]]:
        c = counter or SeedBytes()
        return [{"path": str(f.path), "kind": f.kind, "tokens": round(c.text(f.content)),
                 "chars": len(f.content)} for f in self.files]


# Change records kept for sessions whose view is older than the memo (a few per edit or
# commit; the oldest go first).
MAX_CHANGE_RECORDS = 1_000


@dataclass
class _Record:
    seq: int
    key: str  # a memory file path, or "git"
    attachment: dict[str, Any]
    text: str


@dataclass
class _Baseline:
    files: dict[Path, MemoryFile] = field(default_factory=dict)
    git: GitSnapshot | None = None
    skills: dict[str, Skill] | None = None  # None: not read yet


class PrefixStore:
    """The memoized prefix of one workspace, shared by all its sessions."""

    def __init__(self, cwd: Path, settings: Settings, *, home: Path | None = None,
                 now: Callable[[], datetime] = datetime.now,
                 git_timeout: float = GIT_TIMEOUT_SECONDS) -> None:
        self.cwd = Path(os.path.abspath(cwd))
        self.settings = settings
        self.home = Path(os.path.abspath(home if home is not None else Path.home()))
        self._now = now
        self._git_timeout = git_timeout
        self._lock = threading.RLock()
        self._memo: _Memo | None = None
        self._baseline = _Baseline()
        self._pending: set[Path] = set()
        self._records: list[_Record] = []
        self._seq = 0
        self._floor = 0  # records at or below it are already part of the memo

    # ----- reading the memo -----

    def view(self) -> PrefixView:
        """The current prefix for a session starting over (new, compacted or cleared): the
        memo, rebuilt first when changes came in since it was built."""
        with self._lock:
            self.settle()
            if self._memo is None or self._seq > self._floor:
                self._memo = self._build()
                self._floor = self._seq
            memo = self._memo
            return PrefixView([dict(b) for b in memo.system], memo.user_text, list(memo.files),
                              self._seq)

    def system_blocks(self) -> list[Block]:
        return self.view().system

    def watch_paths(self) -> list[Path]:
        """Every file whose change matters, existing or not; `.git/refs` is a directory."""
        memo = self._ensure()
        paths: list[Path] = []
        if not env_flag("CLAUDE_CODE_DISABLE_CLAUDE_MDS"):
            paths.extend(memory_locations(self.cwd, self.home))
            paths.extend(f.path for f in memo.files)
            # Files a change brought in (a new @include) matter before the next rebuild.
            with self._lock:
                paths.extend(self._baseline.files)
        if memo.repo is not None:
            paths += [memo.repo.git_dir / "HEAD", memo.repo.git_dir / "index",
                      memo.repo.common_dir / "refs", memo.repo.common_dir / "packed-refs"]
        # Skill folders are watched whole; one not made yet through a file inside it, so
        # that its creation re-arms the watch (the list of paths then changes).
        for root, _ in skill_roots(self.cwd, self.home):
            paths.append(root if root.is_dir() else root / "SKILL.md")
        return list(dict.fromkeys(paths))

    # ----- building -----

    def rebuild(self) -> None:
        """Re-read everything into the memo now (a settings change); sessions keep their views
        and the change records they have not seen."""
        with self._lock:
            self.settle()
            self._memo = self._build()
            self._floor = self._seq

    def _ensure(self) -> _Memo:
        with self._lock:
            if self._memo is None:
                self._memo = self._build()
            return self._memo

    def _build(self) -> _Memo:
        repo = find_repo(self.cwd, self._git_timeout)
        git = git_snapshot(self.cwd, self._git_timeout) if repo is not None else None
        files = self._discover(repo)
        system: list[Block] = [{"type": "text", "text": base_prompt(self.cwd)}]
        if git is not None and not env_flag("CLAUDE_CODE_DISABLE_GIT_INSTRUCTIONS"):
            system.append({"type": "text", "text": f"gitStatus: {git.render()}"})
        skills = {s.name: s for s in discover_skills(self.cwd, self.home)}
        self._baseline = _Baseline({f.path: f for f in files}, git, skills)
        return _Memo(system, self._render_user(files), files, repo, git)

    def _discover(self, repo: GitRepo | None) -> list[MemoryFile]:
        if env_flag("CLAUDE_CODE_DISABLE_CLAUDE_MDS"):
            return []
        roots = (self.cwd,) + ((repo.toplevel,) if repo is not None else ())
        return discover_memory_files(self.cwd, self.home, roots)

    def _render_user(self, files: list[MemoryFile]) -> str:
        sections = []
        if files:
            body = "\n\n".join(
                f"Contents of {f.path} ({KIND_TEXT[f.kind]}):\n\n{f.content}" for f in files)
            sections.append(f"# claudeMd\n{CLAUDE_MD_HEADER}\n\n{body}")
        sections.append(f"# currentDate\nToday's date is {self._now().date().isoformat()}.")
        return ("<system-reminder>\n" + CONTEXT_INTRO + "\n" + "\n\n".join(sections)
                + "\n\n" + CONTEXT_OUTRO + "\n</system-reminder>\n")

    # ----- changes -----

    def on_change(self, paths: set[Path]) -> None:
        """Note changed paths; they are read when a session next asks (or at ``settle``)."""
        with self._lock:
            self._pending.update(Path(os.path.abspath(p)) for p in paths)

    def settle(self) -> None:
        """Turn noted paths into change records: reads files and runs git. Safe off-loop."""
        with self._lock:
            memo = self._ensure()
            pending, self._pending = self._pending, set()
            if not pending:
                return
            memory = {p for p in self.watch_paths() if p.name != "refs"}
            git_dirs = (memo.repo.git_dir, memo.repo.common_dir) if memo.repo else ()
            touches_git = any(p == d or d in p.parents for p in pending for d in git_dirs)
            if any(p in memory and not any(d in p.parents for d in git_dirs) for p in pending):
                self._settle_memory(memo.repo)
            if touches_git and memo.repo is not None:
                self._settle_git()
            roots = [root for root, _ in skill_roots(self.cwd, self.home)]
            if any(p == r or r in p.parents for p in pending for r in roots):
                self._settle_skills()

    def _settle_memory(self, repo: GitRepo | None) -> None:
        now = {f.path: f for f in self._discover(repo)}
        old = self._baseline.files
        for path, f in now.items():
            if path not in old or old[path].content != f.content:
                self._record(str(path), {"type": "claude_md_changed", "path": str(path),
                                         "kind": f.kind, "deleted": False, "content": f.content},
                             f"The file {path} ({KIND_TEXT[f.kind]}) changed since the "
                             f"conversation started; its current content is:\n\n{f.content}")
        for path, f in old.items():
            if path not in now:
                gone = "was deleted" if not path.exists() else "no longer applies"
                self._record(str(path), {"type": "claude_md_changed", "path": str(path),
                                         "kind": f.kind, "deleted": True, "content": None},
                             f"The file {path} {gone} since the conversation started; "
                             "the instructions it held no longer apply.")
        self._baseline.files = now

    def _settle_skills(self) -> None:
        """A skill added, changed or removed: one record per skill (never a rebuild; the
        listing is no part of the prefix)."""
        now = {s.name: s for s in discover_skills(self.cwd, self.home)}
        old = self._baseline.skills
        self._baseline.skills = now
        if old is None:
            return
        for name, skill in now.items():
            before = old.get(name)
            if before is None or before.digest != skill.digest or before.path != skill.path:
                kind = "added" if before is None else "changed"
                self._record(f"skill:{name}", {"type": "skill_changed", "name": name, "change": kind,
                                               "description": skill.description,
                                               "source": skill.source},
                             change_text(kind, skill, name))
        for name in old:
            if name not in now:
                self._record(f"skill:{name}", {"type": "skill_changed", "name": name,
                                               "change": "removed"},
                             change_text("removed", None, name))

    def _settle_git(self) -> None:
        snap = git_snapshot(self.cwd, self._git_timeout)
        if snap == self._baseline.git:
            return
        self._baseline.git = snap
        self._record("git", {"type": "git_changed", "branch": snap.branch, "head": snap.head,
                             "status": snap.status_text(), "commits": snap.commits},
                     snap.render_change())

    def _record(self, key: str, attachment: dict[str, Any], text: str) -> None:
        self._seq += 1
        self._records.append(_Record(self._seq, key, attachment, text))
        del self._records[:-MAX_CHANGE_RECORDS]

    def cursor(self) -> int:
        """The cursor of a session that has seen everything so far."""
        with self._lock:
            self.settle()
            return self._seq

    def changes_since(self, cursor: int) -> tuple[list[Message], int]:
        """Attachments for what changed after ``cursor`` (latest per file), and the new cursor."""
        with self._lock:
            self.settle()
            latest: dict[str, _Record] = {}
            for rec in self._records:
                if rec.seq > cursor:
                    latest.pop(rec.key, None)
                    latest[rec.key] = rec  # re-inserted so order follows the latest change
            out = [Message(kind="attachment", attachment=dict(rec.attachment),
                           content=[{"type": "text", "text": rec.text}])
                   for rec in latest.values()]
            return out, self._seq


_stores: dict[Path, PrefixStore] = {}
_stores_lock = threading.Lock()


async def read_ahead(make: Callable[[Path, Settings], PrefixStore] | None, cwd: str,
                     settings: Settings) -> None:
    """Build a workspace's memo in a worker thread before a session opens there, so that
    the session finds it built: the git state, CLAUDE.md files and skills of a large or slow
    workspace must not hold the event loop, and with it every other session's requests."""
    import asyncio

    if make is not None:
        await asyncio.to_thread(lambda: make(Path(cwd), settings).view())


def prefix_for(cwd: Path, settings: Settings) -> PrefixStore:
    """The one store of a workspace; a settings change takes effect at the next rebuild."""
    key = Path(os.path.abspath(cwd))
    with _stores_lock:
        store = _stores.get(key)
        if store is None:
            store = _stores[key] = PrefixStore(key, settings)
        elif store.settings != settings:
            store.settings = settings
        return store
