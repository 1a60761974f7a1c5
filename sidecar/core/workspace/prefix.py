"""The memoized context prefix of a workspace: system prompt, git snapshot, CLAUDE.md files.

The prefix is built once per workspace and reused for every request, so the provider's
prompt cache keeps hitting. A change the watchers report does not rewrite it: the change is
recorded and each session receives it once, as an attachment appended to its history, until
compaction, /clear or resume calls ``rebuild``.

The git state lives in ``sidecar.core.workspace.git_snapshot``, the CLAUDE.md files and
their includes in ``sidecar.core.workspace.claude_md``.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from sidecar.core.accounting.tokens import SeedBytes, TextCounter
from sidecar.core.conversation.messages import Block, Message
from sidecar.core.environment import env_flag
from sidecar.core.settings import Settings
from sidecar.core.workspace.claude_md import (
    KIND_TEXT,
    MemoryFile,
    discover_memory_files,
    memory_locations,
)
from sidecar.core.workspace.git_snapshot import (
    GIT_TIMEOUT_SECONDS,
    GitRepo,
    GitSnapshot,
    find_repo,
    git_snapshot,
)
from sidecar.core.workspace.skills import Skill, change_text, discover_skills, skill_roots

CLAUDE_MD_HEADER = (
    "The instructions below come from the user and from this codebase. They take precedence "
    "over your default behaviour: follow them exactly as written."
)
CONTEXT_INTRO = "The following context may be used while you answer the user:"
CONTEXT_OUTRO = (
    "This context may or may not matter for the task at hand; act on it only when it is "
    "clearly relevant."
)


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
