"""The commands plan mode's read-only shell runs, and the options each may take.

An allow-list, not a list of blocked flags: ``sort --compress-program``, ``rg --pre``,
``find -exec``, ``git -c`` and ``git diff --ext-diff`` are refused because they are not
listed. :data:`COMMANDS` holds the plain commands with their options, :data:`GIT` and
:data:`GIT_ACTIONS` the git subcommands that only read with theirs; find's predicates and
the git options allowed before a subcommand are here too, for the readers of ``cd``,
``find`` and ``git`` in ``sidecar.core.permissions.readonly_shell``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

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
# cd, find and git have their own readers (in readonly_shell).
SPECIAL = ("cd", "find", "git")

# find: its expression, by allowed predicates (no -exec, -ok, -delete, -fprint*, -fls).
FIND_WITH_VALUE = frozenset(
    "-name -iname -path -ipath -wholename -iwholename -lname -ilname -regex -iregex -regextype "
    "-type -xtype -size -mtime -mmin -atime -amin -ctime -cmin -used -perm -user -group -uid "
    "-gid -links -inum -maxdepth -mindepth -printf -newer -anewer -cnewer -samefile "
    "-fstype".split())
FIND_ALONE = frozenset(
    "-empty -readable -writable -executable -nouser -nogroup -print -print0 -prune -quit "
    "-true -false -depth -d -xdev -mount -noleaf -daystart -ls -a -and -o -or -not ! ( ) , "
    "-ignore_readdir_race -noignore_readdir_race -nowarn -warn".split())
NEWER_XY = frozenset(f"-newer{x}{y}" for x in "aBcm" for y in "aBcmt")

# git: the subcommands that only read, each with its options.
GIT_GLOBAL = frozenset({"--no-pager", "-P", "--no-optional-locks", "--literal-pathspecs",
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
FORMATS = ("--format", "--pretty")


def _git_spec(flags: str = "", valued: Mapping[str, Kind] | None = None, optional: str = "",
              attached: str = "", digits: bool = False) -> Spec:
    return spec(flags, valued, optional, attached, operands="git", digits=digits)


_LOGGING = _git_spec(f"{_LOG_FLAGS} {_DIFF_FLAGS}", {**_LOG_VALUED, **_DIFF_VALUED},
                     f"{_LOG_OPTIONAL} {_DIFF_OPTIONAL}", _DIFF_ATTACHED, digits=True)
_DIFFING = _git_spec(f"{_DIFF_FLAGS} --cached --staged --merge-base", _DIFF_VALUED,
                     _DIFF_OPTIONAL, _DIFF_ATTACHED)
LISTING_IMPLIED = frozenset({"-l", "--list", "--contains", "--no-contains", "--merged",
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
