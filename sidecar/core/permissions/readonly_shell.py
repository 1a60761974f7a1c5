"""The shell commands plan mode runs unasked: read-only by construction.

A command is read as a small subset of bash: simple commands joined by ``|``, ``||``,
``&&`` and ``;``, words in plain, single- or double-quoted text. Anything else unquoted —
a redirection, ``$`` (variables, substitutions), backquotes, ``&`` alone, parentheses,
braces, brackets, ``!``, ``#``, a line break — makes the command not read-only. Each
simple command must be on :data:`COMMANDS`, and every option it is given must be one that
command's entry lists (an allow-list, not a list of blocked flags: ``sort
--compress-program``, ``rg --pre``, ``find -exec``, ``git -c`` and ``git diff --ext-diff``
are refused because they are not listed). Long options match exactly (an abbreviation is
unknown, so refused).

A word with an unquoted ``*`` or ``?`` is expanded here as bash would (in the folder the
command runs in) and the names it matches are vetted as if typed, and as paths: a file
named ``--pre=sh`` cannot become an option. ``~`` at the start of a word is the home
folder.

Every path a command reads (operands of the commands that read files, path-valued
options, ``find``'s starting points, ``cd``'s target, git's operands that name files) must
resolve, symlinks followed, inside one of the session's roots; else the verdict is "ask",
as the Read tool asks. ``cd`` moves where the rest of the command runs, so each later part
is vetted in every folder it may run in (``cd`` may fail, or be skipped after ``||``).
:class:`Vetting` also says in which folders git runs, so that the caller can run it with
``sidecar.core.workspace.safe_git``'s overrides.
"""

from __future__ import annotations

import glob
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

# ----- reading the command -------------------------------------------------------------------


@dataclass(frozen=True)
class Word:
    text: str  # the word as bash passes it (quotes removed)
    pattern: str | None = None  # a glob pattern (quoted parts escaped) when it has unquoted * or ?
    home: bool = False  # starts with an unquoted ~ (followed by / or nothing)


_REFUSED = {
    "<": "a redirection", ">": "a redirection", "$": "a variable or substitution",
    "`": "a substitution", "(": "a subshell", ")": "a subshell", "{": "a group or brace expansion",
    "}": "a group or brace expansion", "[": "a glob class", "]": "a glob class",
    "!": "a negation", "#": "a comment", "&": "a background job", "~": "a home folder expansion bash may make of it",
}
_SPACE = " \t"


class _Unsafe(ValueError):
    pass


def parse(command: str) -> list[list[Word]]:
    """The simple commands of ``command``; raises ``ValueError`` (the reason) on anything
    outside the subset."""
    segments: list[list[Word]] = []
    words: list[Word] = []
    text: list[str] = []
    pattern: list[str] = []
    globbed = started = home = False
    i, n = 0, len(command)

    def end_word() -> None:
        nonlocal globbed, started, home
        if started:
            joined = "".join(text)
            words.append(Word(joined, "".join(pattern) if globbed else None, home))
        text.clear()
        pattern.clear()
        globbed = started = home = False

    def literal(ch: str) -> None:
        nonlocal started
        started = True
        text.append(ch)
        pattern.append(glob.escape(ch))

    def end_segment(op: str) -> None:
        end_word()
        if not words:
            raise _Unsafe(f"it has an empty part before {op!r}")
        segments.append(list(words))
        words.clear()

    while i < n:
        ch = command[i]
        if ch in _SPACE:
            end_word()
        elif ch == "'":
            close = command.find("'", i + 1)
            if close < 0:
                raise _Unsafe("it could not be read as plain words (unbalanced quotes)")
            chunk = command[i + 1:close]
            if "\n" in chunk or "\r" in chunk:
                raise _Unsafe("it has a line break")
            started = True
            for c in chunk:
                literal(c)
            i = close
        elif ch == '"':
            started = True
            i += 1
            while True:
                if i >= n:
                    raise _Unsafe("it could not be read as plain words (unbalanced quotes)")
                c = command[i]
                if c == '"':
                    break
                if c in "\n\r":
                    raise _Unsafe("it has a line break")
                if c in "$`":
                    raise _Unsafe(f"it uses {c!r} ({_REFUSED[c]})")
                if c == "\\" and i + 1 < n and command[i + 1] in '$`"\\':
                    i += 1
                    c = command[i]
                literal(c)
                i += 1
        elif ch == "\\":
            if i + 1 >= n or command[i + 1] in "\n\r":
                raise _Unsafe("it has a line break")
            i += 1
            literal(command[i])
        elif ch == "|" or ch == ";" or (ch == "&" and command[i:i + 2] == "&&"):
            op = command[i:i + 2] if command[i:i + 2] in ("||", "&&") else ch
            if command[i:i + 2] in ("|&", ";;", ";&"):
                raise _Unsafe(f"it uses {command[i:i + 2]!r} (not a plain pipe or list)")
            end_segment(op)
            i += len(op) - 1
        elif ch == "~" and not started and (i + 1 >= n or command[i + 1] in "/" + _SPACE + "|;&"):
            home = started = True
            text.append(os.path.expanduser("~"))
            pattern.append(glob.escape(os.path.expanduser("~")))
        elif ch == "~" and started and text and text[-1] not in "=:":
            literal(ch)  # HEAD~1: only a word's start, or after = or :, is expanded
        elif ch in "\n\r":
            raise _Unsafe("it has a line break")
        elif ch in _REFUSED:
            raise _Unsafe(f"it uses {ch!r} ({_REFUSED[ch]})")
        elif ch in "*?":
            started = globbed = True
            text.append(ch)
            pattern.append(ch)
        else:
            literal(ch)
        i += 1
    end_word()
    if words:
        segments.append(list(words))
    elif segments and command.rstrip()[-1:] != ";":
        raise _Unsafe("it ends with an operator")
    if not segments:
        raise _Unsafe("it is empty")
    return segments


_DOT_GLOB = re.compile(r"(^|/)\.[^/]*[*?][^/]*")


def expand(word: Word, cwd: Path) -> list[str]:
    """What bash makes of ``word`` in ``cwd``: the names a glob matches (sorted), or the
    word itself when it matches nothing or is no glob."""
    if word.pattern is None:
        return [word.text]
    if os.path.isabs(word.pattern):
        found = sorted(glob.glob(word.pattern))
    else:
        found = sorted(glob.glob(word.pattern, root_dir=cwd))
    climbing = _DOT_GLOB.sub(r"\1..", word.text, count=1)
    if climbing != word.text:
        # An older bash (or `shopt -u globskipdots`) lets `.*` match `..` too.
        found.append(climbing)
    return found or [word.text]


# ----- what each command may take ------------------------------------------------------------

Kind = Literal["text", "path", "format"]
T: Kind = "text"
P: Kind = "path"
F: Kind = "format"
Operands = Literal["paths", "text", "pattern", "none", "any", "git"]


@dataclass(frozen=True)
class Spec:
    """The options one command may take, and what its operands are."""

    flags: frozenset[str] = frozenset()  # options without a value: "-l", "--all"
    valued: Mapping[str, Kind] = field(default_factory=dict)  # "-n 5", "-n5", "--lines=5"
    optional: frozenset[str] = frozenset()  # long options whose value only comes after "="
    attached: frozenset[str] = frozenset()  # short options with an optional value in the same word ("-U3")
    operands: Operands = "paths"
    digits: bool = False  # "-5" (head, tail, grep, git log)
    # Options that give the pattern, so that every operand is a path ("grep -e x a b").
    pattern_options: frozenset[str] = frozenset()
    # A folder operand asks: diff compares the files in it, following their links.
    no_folders: bool = False


def spec(flags: str = "", valued: Mapping[str, Kind] | None = None, optional: str = "",
         attached: str = "", operands: Operands = "paths", digits: bool = False,
         pattern_options: str = "", no_folders: bool = False) -> Spec:
    return Spec(frozenset(flags.split()), dict(valued or {}), frozenset(optional.split()),
                frozenset(attached.split()), operands, digits, frozenset(pattern_options.split()),
                no_folders)


def _all(names: str, kind: Kind = T) -> dict[str, Kind]:
    return {name: kind for name in names.split()}


_GREP_SELECT = ("-i -y -v -c -l -L -n -h -H -o -q -s -r -w -x -E -F -G -P -a -I -b -U -T -Z -z "
                "--ignore-case --no-ignore-case --invert-match --count --files-with-matches "
                "--files-without-match --line-number --no-filename --with-filename "
                "--only-matching --quiet --silent --no-messages --recursive --word-regexp "
                "--line-regexp --extended-regexp --fixed-strings --basic-regexp --perl-regexp "
                "--text --byte-offset --binary --initial-tab --null --null-data --line-buffered")
_GREP = spec(_GREP_SELECT, {
    "-e": T, "--regexp": T, "-f": P, "--file": P,
    **_all("-A -B -C -m -d -D --after-context --before-context --context --max-count --include "
           "--exclude --exclude-dir --label --binary-files --directories --devices "
           "--group-separator")}, optional="--color --colour", operands="pattern", digits=True,
    pattern_options="-e --regexp -f --file")
_SUMS = spec("-b -t -z --binary --text --tag --zero")

COMMANDS: dict[str, Spec] = {
    "ls": spec("-a -A -l -h -R -t -r -S -1 -d -F -p -i -s -n -g -o -G -U -X -v -c -u -x -C -m "
               "-Q -N -B -k --all --almost-all --human-readable --recursive --reverse "
               "--directory --classify --inode --size --numeric-uid-gid --no-group --literal "
               "--quote-name --group-directories-first --full-time --si --ignore-backups",
               _all("-I -w -T --ignore --hide --width --sort --time-style --format --time "
                    "--indicator-style --block-size --tabsize --quoting-style"),
               optional="--color --colour"),
    "cat": spec("-A -b -e -E -n -s -t -T -u -v --show-all --number-nonblank --show-ends "
                "--number --squeeze-blank --show-tabs --show-nonprinting"),
    "head": spec("-q -v -z --quiet --silent --verbose --zero-terminated",
                 _all("-n -c --lines --bytes"), digits=True),
    "tail": spec("-q -v -z --quiet --silent --verbose --zero-terminated",
                 _all("-n -c --lines --bytes"), digits=True),
    "wc": spec("-c -m -l -L -w --bytes --chars --lines --max-line-length --words"),
    "grep": _GREP, "egrep": _GREP, "fgrep": _GREP,
    "rg": spec("-i -S -s -v -w -x -F -n -N -l -c -o -u -H -I -U -P -q -0 -a -b -p "
               "--ignore-case --smart-case --case-sensitive --invert-match --word-regexp "
               "--line-regexp --fixed-strings --line-number --no-line-number "
               "--files-with-matches --files-without-match --count --count-matches "
               "--only-matching --unrestricted --hidden --no-ignore --no-ignore-vcs "
               "--no-ignore-parent --no-ignore-dot --with-filename --no-filename --no-heading "
               "--heading --column --vimgrep --json --files --type-list --multiline "
               "--multiline-dotall --pcre2 --quiet --null --text --byte-offset --pretty --trim "
               "--stats --passthru --no-messages --one-file-system --glob-case-insensitive "
               "--crlf --no-config",
               {"-e": T, "--regexp": T, "-f": P, "--file": P,
                **_all("-g -t -T -A -B -C -m -d -M -j -r -E --glob --iglob --type --type-not "
                       "--after-context --before-context --context --max-count --max-depth "
                       "--max-filesize --max-columns --threads --sort --sortr --replace "
                       "--color --colors --encoding --field-match-separator "
                       "--context-separator --path-separator --engine")},
               operands="pattern", pattern_options="-e --regexp -f --file --files --type-list"),
    "pwd": spec("-L -P", operands="none"),
    "echo": spec(operands="any"),
    "true": spec(operands="any"),
    "false": spec(operands="any"),
    "test": spec(operands="any"),
    "type": spec("-a -f -p -P -t", operands="text"),
    "which": spec("-a", operands="text"),
    "sort": spec("-b -d -f -g -i -M -h -n -R -r -V -c -C -m -s -u -z --ignore-leading-blanks "
                 "--dictionary-order --ignore-case --general-numeric-sort --ignore-nonprinting "
                 "--month-sort --human-numeric-sort --numeric-sort --random-sort --reverse "
                 "--version-sort --merge --stable --unique --zero-terminated --debug",
                 _all("-k -t -S --key --field-separator --buffer-size --parallel --sort"),
                 optional="--check"),
    "cut": spec("-s -n -z --complement --only-delimited --zero-terminated",
                _all("-b -c -f -d --bytes --characters --fields --delimiter --output-delimiter")),
    "tr": spec("-c -C -d -s -t --complement --delete --squeeze-repeats --truncate-set1",
               operands="text"),
    "stat": spec("-L -f -t --dereference --file-system --terse", _all("-c --format --printf")),
    "file": spec("-b -i -k -L -h -N -0 -r -E --brief --mime --mime-type --mime-encoding "
                 "--keep-going --dereference --no-dereference --no-pad --print0 --raw "
                 "--extension --apple", _all("-F --separator")),
    "du": spec("-a -b -c -h -k -m -s -x -l -S --all --apparent-size --bytes --total "
               "--human-readable --summarize --one-file-system --count-links --separate-dirs "
               "--si --inodes", _all("-d -t -B --max-depth --exclude --threshold --block-size"),
               optional="--time"),
    "df": spec("-h -H -T -i -a -l -P -k --human-readable --si --print-type --inodes --all "
               "--local --portability --total", _all("-t -x -B --type --exclude-type --block-size"),
               optional="--output"),
    "tree": spec("-a -d -f -i -s -h -D -p -u -g -F -C -n -r -t -c -v -U -N -Q -x -q -J -A -S "
                 "--du --si --noreport --dirsfirst --prune --inodes --device --gitignore "
                 "--matchdirs --ignore-case --metafirst",
                 _all("-L -P -I --charset --filelimit --timefmt --sort")),
    "diff": spec("-u -c -q -N -a -b -B -w -i -E -Z -y -t -T -p -d -s --brief "
                 "--report-identical-files --side-by-side --ignore-all-space "
                 "--ignore-space-change --ignore-blank-lines --ignore-case --text --new-file "
                 "--unidirectional-new-file --strip-trailing-cr --suppress-common-lines "
                 "--left-column --minimal --speed-large-files --expand-tabs --initial-tab "
                 "--show-c-function --ignore-tab-expansion --ignore-trailing-space "
                 "--suppress-blank-empty --normal",
                 _all("-U -C -W -I -F --width --label --ignore-matching-lines --tabsize "
                      "--show-function-line --horizon-lines"),
                 optional="--unified --context --color", no_folders=True),
    "cmp": spec("-b -l -s --print-bytes --verbose --silent --quiet",
                _all("-i -n --ignore-initial --bytes")),
    "realpath": spec("-e -m -s -q -z -L -P --canonicalize-existing --canonicalize-missing "
                     "--no-symlinks --strip --quiet --zero --logical --physical",
                     _all("--relative-to --relative-base"), operands="text"),
    "readlink": spec("-f -e -m -n -q -s -v -z --canonicalize --canonicalize-existing "
                     "--canonicalize-missing --no-newline --quiet --silent --verbose --zero",
                     operands="text"),
    "basename": spec("-a -z --multiple --zero", _all("-s --suffix"), operands="text"),
    "dirname": spec("-z --zero", operands="text"),
    "uname": spec("-a -s -n -r -v -m -p -i -o --all --kernel-name --nodename --kernel-release "
                  "--kernel-version --machine --processor --hardware-platform "
                  "--operating-system", operands="none"),
    "whoami": spec(operands="none"),
    "nl": spec("-p --no-renumber",
               _all("-b -d -f -h -i -l -n -s -v -w --body-numbering --section-delimiter "
                    "--footer-numbering --header-numbering --line-increment --join-blank-lines "
                    "--number-format --number-separator --starting-line-number --number-width")),
    "sha1sum": _SUMS, "sha224sum": _SUMS, "sha256sum": _SUMS, "sha384sum": _SUMS,
    "sha512sum": _SUMS, "md5sum": _SUMS, "b2sum": _SUMS, "cksum": spec(),
    "comm": spec("-1 -2 -3 -z --check-order --nocheck-order --total --zero-terminated",
                 _all("--output-delimiter")),
    "column": spec("-t -x -e -n --table --fillrows", _all("-s -o -c -N -R -T -H -W -l")),
}
# cd, find and git have their own readers below.
SPECIAL = ("cd", "find", "git")

# find: its expression, by allowed predicates (no -exec, -ok, -delete, -fprint*, -fls).
_FIND_WITH_VALUE = frozenset(
    "-name -iname -path -ipath -wholename -iwholename -lname -ilname -regex -iregex -regextype "
    "-type -xtype -size -mtime -mmin -atime -amin -ctime -cmin -used -perm -user -group -uid "
    "-gid -links -inum -maxdepth -mindepth -printf -newer -anewer -cnewer -samefile "
    "-fstype".split())
_FIND_ALONE = frozenset(
    "-empty -readable -writable -executable -nouser -nogroup -print -print0 -prune -quit "
    "-true -false -depth -d -xdev -mount -noleaf -daystart -ls -a -and -o -or -not ! ( ) , "
    "-ignore_readdir_race -noignore_readdir_race -nowarn -warn".split())
_NEWER_XY = frozenset(f"-newer{x}{y}" for x in "aBcm" for y in "aBcmt")

# git: the subcommands that only read, each with its options.
_GIT_GLOBAL = frozenset({"--no-pager", "-P", "--no-optional-locks", "--literal-pathspecs",
                         "--no-replace-objects"})
_DIFF_FLAGS = (
    "-p -u -s -z -R -W -a -b -w -D --patch --no-patch --raw --patch-with-raw --patch-with-stat "
    "--compact-summary --numstat --shortstat --summary --name-only --name-status --check "
    "--full-index --binary --no-renames --find-copies-harder --irreversible-delete --text "
    "--ignore-cr-at-eol --ignore-space-at-eol --ignore-space-change --ignore-all-space "
    "--ignore-blank-lines --minimal --patience --histogram --indent-heuristic "
    "--no-indent-heuristic --function-context --exit-code --quiet --no-textconv --no-ext-diff "
    "--no-color --no-prefix --no-relative --cumulative --no-color-moved "
    "--ita-invisible-in-index --cc -c -m --combined-all-paths --full-diff")
# Not --ignore-submodules nor --submodule: git would run inside submodules.
_DIFF_OPTIONAL = ("--stat --color --word-diff --color-words --relative --dirstat --color-moved "
                  "--abbrev --find-renames --find-copies --break-rewrites --unified")
_DIFF_VALUED = _all(
    "-S -G -I --diff-algorithm --anchored --diff-filter --src-prefix --dst-prefix "
    "--line-prefix --inter-hunk-context --output-indicator-new --output-indicator-old "
    "--output-indicator-context --find-object --skip-to --rotate-to --stat-width "
    "--stat-name-width --stat-count --stat-graph-width --ws-error-highlight --word-diff-regex "
    "--color-moved-ws --ignore-matching-lines")
_DIFF_ATTACHED = "-M -C -B -U -l"
_LOG_FLAGS = (
    "--oneline --graph --all --no-decorate --source --abbrev-commit --no-abbrev-commit "
    "--full-history --simplify-by-decoration --simplify-merges --dense --sparse --date-order "
    "--topo-order --author-date-order --reverse --left-right --cherry-pick --cherry-mark "
    "--cherry --boundary --merges --no-merges --first-parent --follow --relative-date "
    "--parents --children --do-walk --log-size --invert-grep -i --regexp-ignore-case -E "
    "--extended-regexp -F --fixed-strings --perl-regexp --all-match --basic-regexp "
    "--no-notes --use-mailmap --mailmap --no-mailmap --no-use-mailmap --reflog -g "
    "--walk-reflogs --remove-empty --single-worktree --show-pulls --left-only --right-only "
    "--not --no-expand-tabs --no-walk --ancestry-path --clear-decorations")
_LOG_OPTIONAL = ("--decorate --branches --tags --remotes --glob --notes --no-walk "
                 "--ancestry-path --date --pretty --format --expand-tabs")
_LOG_VALUED: dict[str, Kind] = _all(
    "-n -L --max-count --skip --since --after --until --before --author --committer --grep "
    "--grep-reflog --exclude --decorate-refs --decorate-refs-exclude --min-parents "
    "--max-parents --since-as-filter --encoding")
_FORMATS = ("--format", "--pretty")


def _git_spec(flags: str = "", valued: Mapping[str, Kind] | None = None, optional: str = "",
              attached: str = "", digits: bool = False) -> Spec:
    return spec(flags, valued, optional, attached, operands="git", digits=digits)


_LOGGING = _git_spec(f"{_LOG_FLAGS} {_DIFF_FLAGS}", {**_LOG_VALUED, **_DIFF_VALUED},
                     f"{_LOG_OPTIONAL} {_DIFF_OPTIONAL}", _DIFF_ATTACHED, digits=True)
_DIFFING = _git_spec(f"{_DIFF_FLAGS} --cached --staged --merge-base", _DIFF_VALUED,
                     _DIFF_OPTIONAL, _DIFF_ATTACHED)
_LISTING_IMPLIED = frozenset({"-l", "--list", "--contains", "--no-contains", "--merged",
                              "--no-merged", "--points-at"})
GIT: dict[str, Spec] = {
    "status": _git_spec("-s -b -v -z --short --branch --show-stash --long --verbose "
                        "--no-ahead-behind --ahead-behind --renames --no-renames --no-column "
                        "--null", optional="--porcelain --untracked-files --ignored "
                        "--column --find-renames", attached="-u -M"),
    "log": _LOGGING, "show": _LOGGING, "whatchanged": _LOGGING,
    "diff": _DIFFING,
    "shortlog": _git_spec(f"-n -s -e -c --numbered --summary --email --committer {_LOG_FLAGS}",
                          {**_LOG_VALUED, "--group": T}, f"{_LOG_OPTIONAL}", "-w", digits=True),
    "ls-files": _git_spec("-c -d -m -o -i -s -u -k -z -t -v -f --cached --deleted --modified "
                          "--others --ignored --stage --unmerged --killed --directory "
                          "--no-empty-directory --exclude-standard --full-name --error-unmatch "
                          "--eol --deduplicate --sparse --debug",
                          {"-x": T, "--exclude": T, "--format": F, "--with-tree": T},
                          "--abbrev"),
    "ls-tree": _git_spec("-r -t -d -l -z --name-only --name-status --object-only --full-name "
                         "--full-tree --long", {"--format": F}, "--abbrev"),
    "rev-parse": _git_spec("--show-toplevel --git-dir --absolute-git-dir --git-common-dir "
                           "--is-inside-work-tree --is-inside-git-dir --is-bare-repository "
                           "--is-shallow-repository --show-prefix --show-cdup --verify -q "
                           "--quiet --symbolic --symbolic-full-name --all "
                           "--show-superproject-working-tree --shared-index-path --sq "
                           "--revs-only --no-revs --flags --no-flags --local-env-vars",
                           _all("--git-path --since --after --until --before --prefix "
                                "--exclude"),
                           "--short --abbrev-ref --branches --tags --remotes --glob "
                           "--show-object-format --disambiguate --path-format"),
    "blame": _git_spec("-b -l -t -s -e -w -p -c -n -f --root --show-stats --porcelain "
                       "--line-porcelain --incremental --show-name --show-number --show-email "
                       "--no-textconv --color-lines --color-by-age --minimal --no-progress "
                       "--reverse --first-parent", _all("-L --date --ignore-rev"),
                       "--abbrev", "-M -C"),
    "grep": _git_spec("-i -I -v -w -a -h -H -l -L -c -n -o -q -z -E -G -F -P -W -p --cached "
                      "--untracked --ignore-case --invert-match --word-regexp --text "
                      "--full-name --files-with-matches --name-only --files-without-match "
                      "--count --line-number --only-matching --quiet --null --extended-regexp "
                      "--basic-regexp --fixed-strings --perl-regexp --show-function "
                      "--function-context --all-match --and --or --not --heading --break "
                      "--column --no-textconv --recursive --no-recursive --exclude-standard "
                      "--no-exclude-standard --no-color",
                      {"-e": T, "-f": P, **_all("-A -B -C -m --after-context --before-context "
                                                "--context --max-count --max-depth --threads")},
                      "--color", digits=True),
    "describe": _git_spec("--all --tags --long --always --contains --exact-match --first-parent "
                          "--debug", _all("--match --exclude --candidates"),
                          "--abbrev --dirty --broken"),
    "cat-file": _git_spec("-t -s -p -e --allow-unknown-type --mailmap --use-mailmap"),
    "branch": _git_spec("-a -r -v -l -i --list --all --remotes --verbose --show-current "
                        "--no-color --ignore-case --omit-empty --no-column",
                        {**_all("--contains --no-contains --merged --no-merged --points-at "
                                "--sort"), "--format": F}, "--color --abbrev --column"),
    "tag": _git_spec("-l -i --list --ignore-case --no-column --omit-empty",
                     {**_all("--contains --no-contains --merged --no-merged --points-at "
                             "--sort"), "--format": F}, "--column --color", "-n"),
    "remote": _git_spec("-v --verbose"),
}
# Subcommands with an action word first: the actions that only read, and their options.
GIT_ACTIONS: dict[str, dict[str, Spec]] = {
    "stash": {"list": _LOGGING, "show": _git_spec(
        f"{_DIFF_FLAGS} -u --include-untracked --only-untracked", _DIFF_VALUED, _DIFF_OPTIONAL,
        _DIFF_ATTACHED)},
    "reflog": {"show": _LOGGING},
}


# ----- the verdict ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Vetting:
    """``allow``: read-only and inside the roots; ``ask``: read-only but it reads outside
    them (``reason`` names what); ``refuse``: not read-only (``reason`` says why)."""

    action: Literal["allow", "ask", "refuse"]
    reason: str = ""
    git_cwds: tuple[Path, ...] = ()  # the folders git runs in


class _Refused(Exception):
    pass


def _unlisted(name: str, option: str) -> _Refused:
    return _Refused(f"`{name} {option}` is not one of the options plan mode allows for {name} "
                    "(it may write a file or run another program)")


# Each `cd` may or may not have happened, so the folders double with every `cd` elsewhere.
MAX_FOLDERS = 16


def vet(command: str, roots: Sequence[Path], cwd: Path | None = None) -> Vetting:
    """Whether ``command``, run in ``cwd`` (the first root), only reads inside ``roots``."""
    try:
        segments = parse(command)
    except ValueError as exc:
        return Vetting("refuse", str(exc))
    real_roots = [os.path.realpath(r) for r in roots]
    start = cwd if cwd is not None else (roots[0] if roots else Path.cwd())
    cwds: list[Path] = [Path(os.path.realpath(start))]
    outside: list[str] = []
    git_cwds: list[Path] = []
    try:
        for segment in segments:
            moved: list[Path] = []
            for here in cwds:
                reader = _Segment(here, real_roots)
                reader.read(segment)
                outside += [p for p in reader.outside if p not in outside]
                if reader.is_git and here not in git_cwds:
                    git_cwds.append(here)
                if reader.cd_to is not None and reader.cd_to not in cwds + moved:
                    moved.append(reader.cd_to)
            cwds += moved  # a cd may fail or be skipped: the old folders stay possible
            if len(cwds) > MAX_FOLDERS:
                raise _Refused(f"its `cd`s leave more than {MAX_FOLDERS} folders it may run in")
    except _Refused as exc:
        return Vetting("refuse", str(exc))
    if outside:
        return Vetting("ask", "it reads outside the workspace: " + ", ".join(outside[:5]),
                       tuple(git_cwds))
    return Vetting("allow", "", tuple(git_cwds))


def _inside(path: str, roots: Sequence[str]) -> bool:
    for root in roots:
        try:
            if os.path.commonpath([path, root]) == root:
                return True
        except ValueError:
            continue
    return False


class _Segment:
    """Reads one simple command in one folder: raises ``_Refused``, or notes the paths
    outside the roots, a ``cd`` target and whether it is git."""

    def __init__(self, cwd: Path, roots: Sequence[str]) -> None:
        self.cwd = cwd
        self.roots = roots
        self.outside: list[str] = []
        self.cd_to: Path | None = None
        self.is_git = False

    def check_path(self, text: str) -> None:
        if text in ("", "-"):
            return
        full = os.path.realpath(os.path.join(self.cwd, text))
        if not _inside(full, self.roots):
            self.outside.append(text)

    def read(self, segment: list[Word]) -> None:
        first = segment[0]
        if first.pattern is not None or first.home:
            raise _Refused("its command name is a pattern")
        name = first.text
        if "=" in name:
            raise _Refused(f"it sets a variable ({name})")
        words: list[str] = []
        for word in segment[1:]:
            names = expand(word, self.cwd)
            if word.pattern is not None:
                for found in names:  # a glob names paths, whatever the command
                    self.check_path(found)
            words += names
        if name == "cd":
            self.read_cd(words)
        elif name == "find":
            self.read_find(words)
        elif name == "git":
            self.is_git = True
            self.read_git(words)
        elif name in COMMANDS:
            self.read_options(name, COMMANDS[name], words)
        else:
            known = ", ".join(sorted([*COMMANDS, *SPECIAL]))
            raise _Refused(f"`{name}` is not one of the read-only commands ({known}; "
                           f"git {', '.join(sorted([*GIT, *GIT_ACTIONS]))})")

    def read_cd(self, words: list[str]) -> None:
        operands = [w for w in words if w not in ("-L", "-P")]
        if len(operands) > 1 or (operands and operands[0].startswith("-")):
            raise _Refused("`cd` takes one folder here")
        target = operands[0] if operands else os.path.expanduser("~")
        self.check_path(target)
        self.cd_to = Path(os.path.realpath(os.path.join(self.cwd, target)))

    def read_find(self, words: list[str]) -> None:
        i = 0
        while i < len(words) and words[i] == "-P":
            i += 1
        while i < len(words) and not (words[i].startswith("-") or words[i] in ("!", "(", ")", ",")):
            self.check_path(words[i])  # a starting point
            i += 1
        while i < len(words):
            word = words[i]
            if word in _FIND_WITH_VALUE or word in _NEWER_XY:
                if i + 1 >= len(words):
                    raise _Refused(f"`find {word}` needs a value")
                i += 2
            elif word in _FIND_ALONE:
                i += 1
            else:
                raise _Refused(f"`find {word}` is not one of the find predicates plan mode "
                               "allows (it may write a file or run another program)")

    def read_git(self, words: list[str]) -> None:
        i = 0
        while i < len(words) and words[i].startswith("-"):
            if words[i] not in _GIT_GLOBAL:
                raise _Refused(f"`git {words[i]}`: git options before the subcommand are not "
                               "allowed in plan mode")
            i += 1
        if i >= len(words):
            return
        sub, rest = words[i], words[i + 1:]
        actions = GIT_ACTIONS.get(sub)
        if actions is not None:
            # A bare `git stash` is `git stash push`; a bare `git reflog` shows.
            action = rest[0] if rest else "push" if sub == "stash" else "show"
            if action not in actions:
                raise _Refused(f"`git {sub} {action}` may change the repository")
            self.read_options(f"git {sub} {action}", actions[action], rest[1:] if rest else [])
            return
        if sub not in GIT:
            raise _Refused(f"`git {sub}` may change the repository or run another program")
        seen, operands = self.read_options(f"git {sub}", GIT[sub], rest)
        if sub in ("branch", "tag") and operands and not seen & _LISTING_IMPLIED:
            raise _Refused(f"`git {sub} {operands[0]}` creates a {sub}")
        if sub == "remote" and operands:
            raise _Refused(f"`git remote {operands[0]}` may change the repository or connect")

    def read_options(self, name: str, spec: Spec, words: list[str]) -> tuple[set[str], list[str]]:
        """Check every option against ``spec``; check the operands it reads. Returns the
        options seen and the operands."""
        seen: set[str] = set()
        operands: list[str] = []
        i = 0
        ended = spec.operands == "any"
        while i < len(words):
            word = words[i]
            i += 1
            if ended or word == "-" or not word.startswith("-"):
                operands.append(word)
                continue
            if word == "--":
                ended = True
                continue
            if word.startswith("--"):
                option, eq, value = word.partition("=")
                seen.add(option)
                if option in spec.valued:
                    if not eq:
                        if i >= len(words):
                            raise _Refused(f"`{name} {option}` needs a value")
                        value = words[i]
                        i += 1
                    self.check_value(name, option, spec.valued[option], value)
                elif option in spec.optional:
                    if eq:
                        self.check_value(name, option, "format" if option in _FORMATS else "text", value)
                elif option not in spec.flags or eq:
                    raise _unlisted(name, option)
                continue
            if spec.digits and word[1:].isdigit():
                continue
            j = 1
            while j < len(word):
                option = "-" + word[j]
                seen.add(option)
                rest = word[j + 1:]
                if option in spec.valued:
                    if not rest:
                        if i >= len(words):
                            raise _Refused(f"`{name} {option}` needs a value")
                        rest = words[i]
                        i += 1
                    self.check_value(name, option, spec.valued[option], rest)
                    break
                if option in spec.attached:
                    break  # its value, if any, is the rest of the word
                if option not in spec.flags:
                    raise _unlisted(name, option)
                j += 1
        self.check_operands(spec, operands, seen)
        return seen, operands

    def check_value(self, name: str, option: str, kind: Kind, value: str) -> None:
        if kind == "path":
            self.check_path(value)
        elif kind == "format" and "%G" in value:
            raise _Refused(f"`{name} {option}` with %G checks signatures (runs gpg)")

    def check_operands(self, spec: Spec, operands: list[str], seen: set[str]) -> None:
        if spec.operands == "none" and operands:
            raise _Refused(f"it takes no operand ({operands[0]})")
        if spec.operands == "paths":
            for word in operands:
                self.check_path(word)
                if spec.no_folders and os.path.isdir(os.path.join(self.cwd, word)):
                    self.outside.append(f"{word} (a folder: its files' links are followed)")
        elif spec.operands == "pattern":
            for word in operands if seen & spec.pattern_options else operands[1:]:
                self.check_path(word)
        elif spec.operands == "git":
            for word in operands:
                if self.names_a_path(word):
                    self.check_path(word)

    def names_a_path(self, word: str) -> bool:
        """A git operand that is a file rather than a revision: absolute, climbing, or
        there on disk."""
        return (os.path.isabs(word) or ".." in word.split("/")
                or os.path.lexists(os.path.join(self.cwd, word)))
