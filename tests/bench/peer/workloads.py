"""The scripted workloads: what the user types each turn and what the model does about it.

A workload is built into a fresh workspace folder (its files written there) and becomes a
list of turns; each turn is a user prompt, the tool calls the model makes in order, and
the model's closing answer. The same builder runs once per client, so both clients start
from byte-identical files and face the same script. All text is generated from fixed
seeds and sized with the fake's own tokenizer, so the sizes below are the fake's counts.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sidecar.fake_llm.counting import count_text

# Ten minutes: past the 5-minute prompt-cache TTL, so every cached prefix expires.
CACHE_BREAK_SECONDS = 600.0


@dataclass(frozen=True)
class Step:
    """One tool call of the model: the same tool name and input for both clients."""

    tool: str  # Read, Edit or Bash: both clients have them with these input names
    input: dict[str, Any]
    note: str  # the short text the model writes before the call


@dataclass(frozen=True)
class Turn:
    prompt: str
    steps: tuple[Step, ...]
    answer: str  # the model's closing text once every step has its result


@dataclass(frozen=True)
class Workload:
    name: str
    shape: str  # one line: what the workload exercises
    turns: tuple[Turn, ...]
    claude_tools: str  # Claude Code's --allowedTools, so no permission prompt stops it
    shell_allow: tuple[str, ...] = ()  # the sidecar's tools.allow prefixes, for the same reason
    # Turn index -> seconds the fake's cache clock jumps just before that turn.
    breaks: dict[int, float] = field(default_factory=dict)

    @property
    def steps(self) -> int:
        return sum(len(t.steps) for t in self.turns)


# ------------------------------------------------------------------ generated text

_WORDS = tuple(
    "cache request window budget summary session token context compaction prefix model "
    "editor buffer transcript request handler retry backoff stream chunk delta parser schema "
    "field record index queue worker timeout signal process memory threshold gauge ledger "
    "estimate anchor boundary tail reminder permission tool result output input limit policy"
    .split())


def prose(seed: int, tokens: int) -> str:
    """Plain English-like paragraphs of about ``tokens`` tokens (never fewer)."""
    rng = random.Random(seed)
    sentences: list[str] = []
    while True:
        for _ in range(12):
            words = [rng.choice(_WORDS) for _ in range(rng.randint(8, 18))]
            sentences.append(" ".join(words).capitalize() + ".")
        text = _paragraphs(sentences)
        if count_text(text) >= tokens:
            return _trim(sentences, tokens)


def _paragraphs(sentences: list[str]) -> str:
    return "\n\n".join(" ".join(sentences[i:i + 6]) for i in range(0, len(sentences), 6))


def _trim(sentences: list[str], tokens: int) -> str:
    """The shortest prefix of ``sentences`` that reaches ``tokens`` (binary search)."""
    low, high = 1, len(sentences)
    while low < high:
        mid = (low + high) // 2
        if count_text(_paragraphs(sentences[:mid])) >= tokens:
            high = mid
        else:
            low = mid + 1
    return _paragraphs(sentences[:low])


_FUNCTION = '''def {verb}_{stem}_{i}(
    record: dict[str, object], strict: bool = False
) -> dict[str, object]:
    """{doc}"""
    value = record.get("{stem}_field_{i}")
    if value is None:
        if strict:
            raise ValueError("{stem}_field_{i} is missing from the record")
        return {{"index": {i}, "value": None, "source": "{stem}"}}
    if isinstance(value, str):
        value = value.strip().lower()
    limit = {limit}
    if isinstance(value, int) and value > limit:
        value = limit
    return {{"index": {i}, "value": value, "source": "{stem}"}}


'''


def python_module(stem: str, tokens: int, header: str = "") -> str:
    """A plausible Python module of about ``tokens`` tokens: many small, distinct functions."""
    rng = random.Random(stem)
    parts = [(f'"""Record helpers for {stem}: parsing, normalising and clamping fields."""\n\n'
              f"from __future__ import annotations\n\n{header}\n")]
    i = 0
    while count_text("".join(parts)) < tokens:
        for _ in range(8):
            doc = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(6, 14))).capitalize()
            parts.append(_FUNCTION.format(verb=rng.choice(("parse", "clamp", "check", "merge")),
                                          stem=stem, i=i, doc=doc + ".",
                                          limit=rng.randint(10, 10_000)))
            i += 1
    return "".join(parts)


# The test runner of the edit loops: reads the constants the model edits, so its output
# follows the edits; about 3 KB of pytest-like lines.
_RUN_TESTS = '''import pathlib, re, sys
root = pathlib.Path(__file__).parent / "src"
rates = {}
for path in sorted(root.glob("billing_*.py")):
    for name, value in re.findall(r"^(RATE_\\d+_\\d+) = (\\d+)", path.read_text(), re.M):
        rates[name] = int(value)
for name in sorted(rates):
    outcome = "PASSED" if rates[name] >= 0 else "FAILED"
    print(f"tests/test_billing.py::test_{name.lower()}_is_applied[{rates[name]}] {outcome}")
    print(f"tests/test_billing.py::test_{name.lower()}_round_trip {outcome}")
print(f"==== {2 * len(rates)} passed, 0 failed, {sum(1 for v in rates.values() if v)} raised ====")
'''

# The shell workload's noisy command: ~24 KB of log lines, different for each seed.
_GEN_LOG = '''import random, sys
seed = int(sys.argv[1])
rng = random.Random(seed)
paths = ["/api/v1/items", "/api/v1/orders", "/api/v1/users", "/health", "/api/v2/search"]
levels = ["INFO"] * 8 + ["WARN", "ERROR"]
size = 0
n = 0
while size < 24000:
    line = (f"2026-11-30T10:{n // 60 % 60:02d}:{n % 60:02d}.{rng.randint(0, 999):03d}Z "
            f"{rng.choice(levels):5s} worker-{rng.randint(1, 8)} run={seed} "
            f"req={rng.getrandbits(40):010x} {rng.choice(['GET', 'POST'])} {rng.choice(paths)}/"
            f"{rng.randint(1, 99999)} status={rng.choice([200, 200, 200, 201, 404, 500])} "
            f"duration_ms={rng.randint(1, 2500)}")
    print(line)
    size += len(line) + 1
    n += 1
print(f"-- {n} lines, seed {seed}")
'''


def _write(ws: Path, rel: str, text: str) -> Path:
    path = ws / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _answer(seed: int, tokens: int = 150) -> str:
    return prose(seed, tokens)


# ------------------------------------------------------------------ the workloads

def reading(ws: Path) -> Workload:
    """20 files of ~8K tokens, four a turn over five turns: context grows by reads alone."""
    paths = [_write(ws, f"src/reader_{i:02d}.py", python_module(f"reader{i:02d}", 8_000))
             for i in range(20)]
    turns = []
    for t in range(5):
        batch = paths[4 * t:4 * t + 4]
        names = ", ".join(p.name for p in batch)
        turns.append(Turn(
            prompt=f"Read {names} under src/ and tell me what each of them defines.",
            steps=tuple(Step("Read", {"file_path": str(p)}, f"Reading {p.name}.") for p in batch),
            answer=_answer(100 + t)))
    return Workload("reading", "20 reads of ~8K-token files, 4 per turn x 5 turns",
                    tuple(turns), "Read")


def edit_loop(ws: Path) -> Workload:
    """Read a file, Edit one constant, run the tests; eight rounds over three files."""
    header = "".join(f"RATE_{{k}}_{j} = 0  # per unit, slot {j}\n" for j in range(8))
    files = [_write(ws, f"src/billing_{k}.py",
                    python_module(f"billing{k}", 5_000, header.format(k=k))) for k in range(3)]
    runner = _write(ws, "run_tests.py", _RUN_TESTS)
    test = f"python3 {runner}"
    turns = []
    for t in range(8):
        k, j = t % 3, t // 3
        path = files[k]
        old = f"RATE_{k}_{j} = 0  # per unit, slot {j}"
        new = f"RATE_{k}_{j} = {t + 1}  # per unit, slot {j}, raised in round {t}"
        turns.append(Turn(
            prompt=f"In {path.name}, raise RATE_{k}_{j} to {t + 1} and run the tests.",
            steps=(Step("Read", {"file_path": str(path)}, f"Reading {path.name}."),
                   Step("Edit", {"file_path": str(path), "old_string": old, "new_string": new},
                        f"Raising RATE_{k}_{j}."),
                   Step("Bash", {"command": test, "description": "Run the tests"},
                        "Running the tests.")),
            answer=_answer(200 + t, 80)))
    return Workload("edit_loop", "8 rounds of Read + Edit + Bash test over 3 files of ~5K tokens",
                    tuple(turns), "Read,Edit,Bash", (test,))


def shell(ws: Path) -> Workload:
    """Commands that print ~24 KB each, three a turn over four turns."""
    script = _write(ws, "tools/gen_log.py", _GEN_LOG)
    command = f"python3 {script}"
    turns = []
    for t in range(4):
        seeds = [3 * t + s for s in range(3)]
        turns.append(Turn(
            prompt=f"Run the log generator for runs {seeds[0]} to {seeds[-1]} and tell me "
                   "which endpoints fail most.",
            steps=tuple(Step("Bash", {"command": f"{command} {s}",
                                      "description": f"Generate the log of run {s}"},
                             f"Generating run {s}.") for s in seeds),
            answer=_answer(300 + t)))
    return Workload("shell", "12 Bash commands printing ~24 KB each, 3 per turn x 4 turns",
                    tuple(turns), "Bash", (command,))


def chat(ws: Path) -> Workload:
    """No tools: twelve long prompts (~1,500 tokens) with long answers (~1,500 tokens)."""
    turns = tuple(Turn(prompt=f"Here is part {t + 1} of the design notes; review it and say "
                              f"what you would change.\n\n{prose(400 + t, 1_500)}",
                       steps=(), answer=_answer(500 + t, 1_500)) for t in range(12))
    return Workload("chat", "12 turns, ~1.5K-token prompts and ~1.5K-token answers, no tools",
                    turns, "Read")


def cache_break(ws: Path) -> Workload:
    """Six turns of a read and a test run, with a 10-minute pause before turns 3 and 5."""
    files = [_write(ws, f"src/service_{i}.py", python_module(f"service{i}", 6_000))
             for i in range(6)]
    header = "".join(f"RATE_0_{j} = {j}  # per unit, slot {j}\n" for j in range(8))
    _write(ws, "src/billing_0.py", python_module("billing0", 1_000, header))
    runner = _write(ws, "run_tests.py", _RUN_TESTS)
    test = f"python3 {runner}"
    turns = tuple(Turn(
        prompt=f"Read {path.name} and run the tests; does anything in it need a test?",
        steps=(Step("Read", {"file_path": str(path)}, f"Reading {path.name}."),
               Step("Bash", {"command": test, "description": "Run the tests"},
                    "Running the tests.")),
        answer=_answer(600 + i)) for i, path in enumerate(files))
    return Workload("cache_break", "6 turns of Read + Bash; the fake's clock jumps 10 min "
                    "before turns 3 and 5", turns, "Read,Bash", (test,),
                    {2: CACHE_BREAK_SECONDS, 4: CACHE_BREAK_SECONDS})


def long_reads(ws: Path) -> Workload:
    """One prompt whose turn reads thirty files of ~8K tokens: 240K tokens of results in a
    single turn, more than a 200K window holds."""
    paths = [_write(ws, f"src/module_{i:02d}.py", python_module(f"module{i:02d}", 8_000))
             for i in range(30)]
    turn = Turn(prompt="Read every module under src/ (module_00.py to module_29.py) and tell me "
                       "which of them clamp values and which only parse them.",
                steps=tuple(Step("Read", {"file_path": str(p)}, f"Reading {p.name}.") for p in paths),
                answer=_answer(700, 400))
    return Workload("long_reads", "one turn of 30 reads of ~8K-token files", (turn,), "Read")


def long_mixed(ws: Path) -> Workload:
    """One prompt whose turn searches, reads and runs commands: ten rounds of a Grep, a Read
    of ~6K tokens and a command printing ~24 KB, then a last look at the first file."""
    paths = [_write(ws, f"lib/handler_{i:02d}.py", python_module(f"handler{i:02d}", 6_000))
             for i in range(10)]
    script = _write(ws, "tools/gen_log.py", _GEN_LOG)
    command = f"python3 {script}"
    steps: list[Step] = []
    for i, path in enumerate(paths):
        steps.append(Step("Grep", {"pattern": f"def clamp_handler{i:02d}_", "path": str(ws / "lib")},
                          f"Searching for handler {i}'s clamps."))
        steps.append(Step("Read", {"file_path": str(path)}, f"Reading {path.name}."))
        steps.append(Step("Bash", {"command": f"{command} {40 + i}",
                                   "description": f"Generate the log of run {40 + i}"},
                          f"Checking run {40 + i}'s log."))
    steps.append(Step("Read", {"file_path": str(paths[0])}, f"Back to {paths[0].name}."))
    turn = Turn(prompt="For each handler under lib/, find its clamp functions, read the module "
                       "and check its run's log for failures; then summarize what to fix.",
                steps=tuple(steps), answer=_answer(800, 400))
    return Workload("long_mixed", "one turn of 10 x (Grep, Read of ~6K tokens, Bash of ~24 KB) "
                    "and a re-read", (turn,), "Read,Grep,Bash", (command,))


WORKLOADS: dict[str, Callable[[Path], Workload]] = {
    "reading": reading,
    "edit_loop": edit_loop,
    "shell": shell,
    "chat": chat,
    "cache_break": cache_break,
    "long_reads": long_reads,
    "long_mixed": long_mixed,
}
