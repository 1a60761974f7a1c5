"""Running git in a repository that may be hostile, without it running anything else.

A repository's own config (``.git/config``, what it includes, a worktree's
``config.worktree`` and its submodules' configs) can name programs git starts on its own:
``core.fsmonitor`` (started by any command that reads the index: status, diff, ...),
``diff.<driver>.textconv`` and ``diff.<driver>.command`` (diff, log -p, show, blame),
``diff.external``, ``filter.<driver>.clean/smudge/process`` (status and diff hash
stat-dirty files through the clean filter), hooks, a pager, ``log.showSignature`` with
``gpg.program``, and, in a partial clone, a lazy fetch from the promisor remote that starts
``remote.<name>.uploadpack`` or ``core.sshCommand``. The sidecar's own git snapshot and the
git commands plan mode runs unasked go through :func:`environment`, which lays git's
environment config overrides (``GIT_CONFIG_COUNT``/``GIT_CONFIG_KEY_n``/``GIT_CONFIG_VALUE_n``,
stronger than every config file and inherited by the git processes git starts, submodules
included) over:

- fixed overrides: ``core.fsmonitor=false``, ``core.hooksPath=/dev/null``,
  ``core.pager=cat``, ``log.showSignature=false``, ``protocol.allow=never`` (no transport,
  so no lazy fetch), ``gc.auto=0`` and ``maintenance.auto=false``;
- ``diff.ignoreSubmodules=dirty``, ``diff.submodule=short``,
  ``status.submoduleSummary=false``, ``submodule.recurse=false`` and
  ``submodule.<name>.ignore=dirty`` for every submodule named in the configs or in
  ``.gitmodules``: status and diff would otherwise run git inside each submodule, whose
  config (a ``.git`` folder inside the work tree, say) was not read here;
- an empty value for every ``diff.<x>.textconv``, ``diff.<x>.command``, ``diff.external``,
  ``filter.<x>.clean``, ``filter.<x>.smudge``, ``filter.<x>.process`` and ``gpg*.program``
  the repository's configs set, and ``filter.<x>.required=false``.

What git 2.39 does with those (checked by hand and in the tests): an empty filter is no
filter; an empty textconv, diff command or ``diff.external`` makes the command fail
("cannot run") instead of starting anything, so a ``git diff`` in such a repository fails
closed (``--no-textconv --no-ext-diff`` make it work); ``protocol.allow=never`` stops a lazy
fetch before it connects. ``GIT_PAGER=cat`` and ``GIT_EXTERNAL_DIFF`` unset complete it.

Listing the names to neutralize runs ``git config --list --name-only --show-scope
--includes`` (and ``git config --file`` for submodule configs and ``.gitmodules``), which
starts no helper. The user's own global and system configs are left as they are.

A ``core.worktree`` in the repository's config can also put the work tree anywhere (the
user's ``~/.ssh``, say), so that status and diff read files there: :func:`work_tree` and
:func:`is_above` let callers see that (the snapshot is then left out, and plan mode does
not run such a git command).
"""

from __future__ import annotations

import logging
import os
import subprocess
import time
from collections.abc import Iterable, Mapping
from pathlib import Path

from sidecar.core.process_groups import new_group_options, signal_group

log = logging.getLogger(__name__)

FIXED_OVERRIDES: tuple[tuple[str, str], ...] = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", "/dev/null"),
    ("core.pager", "cat"),
    ("log.showSignature", "false"),
    ("protocol.allow", "never"),
    ("gc.auto", "0"),
    ("maintenance.auto", "false"),
    # No git run inside a submodule, whose own config may name other drivers: status and
    # diff look only at the commit a submodule is at.
    ("diff.ignoreSubmodules", "dirty"),
    ("diff.submodule", "short"),
    ("status.submoduleSummary", "false"),
    ("submodule.recurse", "false"),
)
# Per-driver keys whose value is a command: (section, key) -> the neutral value.
_DRIVER_KEYS: dict[tuple[str, str], str] = {
    ("diff", "textconv"): "",
    ("diff", "command"): "",
    ("filter", "clean"): "",
    ("filter", "smudge"): "",
    ("filter", "process"): "",
}
# Plain keys whose value is a command, set empty when the repository sets them.
_COMMAND_KEYS = frozenset({"diff.external", "gpg.program", "gpg.openpgp.program",
                           "gpg.x509.program", "gpg.ssh.program"})
_REPOSITORY_SCOPES = frozenset({"local", "worktree"})
CONFIG_TIMEOUT_S = 5.0
MAX_SUBMODULE_CONFIGS = 64


def neutralizing(names: Iterable[str]) -> list[tuple[str, str]]:
    """The overrides that disarm the command-valued keys among config ``names``."""
    out: dict[str, str] = {}
    for name in names:
        lowered = name.lower()
        if lowered in _COMMAND_KEYS:
            out[lowered] = ""
            continue
        section, _, rest = name.partition(".")
        driver, _, key = rest.rpartition(".")
        if not driver:
            continue
        section, key = section.lower(), key.lower()
        if section == "submodule":
            # Its own `ignore` would otherwise outrank diff.ignoreSubmodules.
            out[f"submodule.{driver}.ignore"] = "dirty"
            continue
        if (section, key) in _DRIVER_KEYS:
            # The subsection (driver name) keeps its case: it is case-sensitive.
            out[f"{section}.{driver}.{key}"] = _DRIVER_KEYS[(section, key)]
            if section == "filter":
                out[f"filter.{driver}.required"] = "false"
    return sorted(out.items())


def environment(base: Mapping[str, str], cwds: Iterable[Path] = (),
                timeout: float = CONFIG_TIMEOUT_S) -> dict[str, str]:
    """``base`` with the overrides that keep git from starting programs the repositories
    at ``cwds`` name (see the module's docstring); reading their configs takes at most
    ``timeout`` seconds in all."""
    env = dict(base)
    overrides = list(FIXED_OVERRIDES)
    seen: set[str] = set()
    deadline = time.monotonic() + timeout
    for cwd in cwds:
        for item in neutralizing(repository_config_names(cwd, env, deadline)):
            if item[0] not in seen:
                seen.add(item[0])
                overrides.append(item)
    return with_overrides(env, overrides)


def with_overrides(base: Mapping[str, str], overrides: Iterable[tuple[str, str]]) -> dict[str, str]:
    """``base`` plus ``overrides`` as env config, after any the environment already holds."""
    env = dict(base)
    try:
        count = max(int(env.get("GIT_CONFIG_COUNT", "0")), 0)
    except ValueError:
        count = 0
    for key, value in overrides:
        env[f"GIT_CONFIG_KEY_{count}"] = key
        env[f"GIT_CONFIG_VALUE_{count}"] = value
        count += 1
    env["GIT_CONFIG_COUNT"] = str(count)
    env["GIT_PAGER"] = "cat"
    env["GIT_TERMINAL_PROMPT"] = "0"
    env["GIT_OPTIONAL_LOCKS"] = "0"
    env.pop("GIT_EXTERNAL_DIFF", None)
    return env


def repository_config_names(cwd: Path, base: Mapping[str, str],
                            deadline: float | None = None) -> set[str]:
    """The config keys the repository at ``cwd`` sets itself: its local and worktree
    configs with what they include, and its submodules' configs. Empty outside a repo."""
    env = with_overrides(base, FIXED_OVERRIDES)
    end = deadline if deadline is not None else time.monotonic() + CONFIG_TIMEOUT_S
    names: set[str] = set()
    listed = _git(cwd, env, end, "config", "--list", "--name-only", "--show-scope", "--includes")
    if listed is None:
        return names
    for line in listed.splitlines():
        scope, _, name = line.partition("\t")
        if scope in _REPOSITORY_SCOPES and name:
            names.add(name)
    top = _git(cwd, env, end, "rev-parse", "--show-toplevel")
    if top and os.path.isfile(os.path.join(top.strip(), ".gitmodules")):
        got = _git(cwd, env, end, "config", "--file", os.path.join(top.strip(), ".gitmodules"),
                   "--list", "--name-only")
        names.update(n for n in (got or "").splitlines() if n.startswith("submodule."))
    common = _git(cwd, env, end, "rev-parse", "--path-format=absolute", "--git-common-dir")
    if common:
        for path in _submodule_configs(Path(common.strip()) / "modules"):
            got = _git(cwd, env, end, "config", "--file", os.fspath(path), "--list",
                       "--name-only", "--includes")
            names.update(n for n in (got or "").splitlines() if n)
    return names


def work_tree(cwd: Path, env: Mapping[str, str], timeout: float = CONFIG_TIMEOUT_S) -> str | None:
    """The work tree git uses from ``cwd`` (None outside one): a repository's
    ``core.worktree`` can put it anywhere, ``~/.ssh`` too."""
    top = _git(cwd, with_overrides(env, FIXED_OVERRIDES), time.monotonic() + timeout,
               "rev-parse", "--show-toplevel")
    return top.strip() if top else None


def is_above(top: str | os.PathLike[str], here: str | os.PathLike[str]) -> bool:
    """Whether folder ``top`` is ``here`` or holds it (symlinks resolved)."""
    a, b = os.path.realpath(top), os.path.realpath(here)
    try:
        return os.path.commonpath([a, b]) == a
    except ValueError:  # another drive
        return False


def _submodule_configs(modules: Path) -> list[Path]:
    if not modules.is_dir():
        return []
    found: list[Path] = []
    for root, _dirs, files in os.walk(modules):
        if "config" in files:
            found.append(Path(root) / "config")
            if len(found) >= MAX_SUBMODULE_CONFIGS:
                break
    return found


def _git(cwd: Path, env: Mapping[str, str], deadline: float, *args: str) -> str | None:
    """git's output, or None when it fails, is missing or is still running at ``deadline``
    (then it and whatever it started are stopped)."""
    left = deadline - time.monotonic()
    if left <= 0:
        return None
    try:
        proc = subprocess.Popen(["git", *args], cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                **new_group_options())
    except OSError as exc:
        log.debug("git %s failed to start: %s", args[0], exc)
        return None
    try:
        out, _ = proc.communicate(timeout=left)
    except subprocess.TimeoutExpired:
        stop(proc)
        log.warning("git %s timed out", args[0])
        return None
    return out.decode("utf-8", "replace") if proc.returncode == 0 else None


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Force ``proc``'s group to stop: a helper it started may hold its output open."""
    signal_group(proc.pid, hard=True)
    try:
        proc.kill()  # the group signal may not reach it where there are no groups
    except OSError:
        pass
    try:
        proc.communicate(timeout=1.0)
    except (OSError, subprocess.TimeoutExpired):
        pass
