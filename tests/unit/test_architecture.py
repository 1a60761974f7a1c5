"""The layers hold: the engine (``sidecar.core``) imports nothing of the package but itself
and the contract, and no module imports itself back through others, at run time, in a
function, or for types alone."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "sidecar"
# What a module of the engine may import of the package: the engine, the wire contract, and
# the package's own constants (``sidecar/__init__.py``). The transports, the adapters behind
# its ports (MCP included), the process-level helpers and the programs on top are left out.
CORE_MAY_IMPORT = ("sidecar.core", "sidecar.contract")
# What importing the engine must not load, of the package or of third parties: the adapters'
# and transports' code and the SDKs and servers they wrap.
NOT_LOADED_BY_CORE = ("sidecar.mcp", "sidecar.providers", "sidecar.tools", "sidecar.storage",
                      "sidecar.lsp", "sidecar.acp", "sidecar.host", "sidecar.credentials",
                      "sidecar.watch", "pygls", "anthropic", "openai", "mcp", "watchfiles")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """Every sidecar module a file imports, wherever the import statement is."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    this = module_name(path)
    package = this if path.name == "__init__.py" else this.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("sidecar"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.startswith("sidecar"):
                found.add(module)
                # ``from sidecar.core import catalog`` imports the module catalog.
                found.update(f"{module}.{a.name}" for a in node.names)
    return found


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        edges[name] = {m for m in imports_of(path) if m in modules and m != name}
    return edges


def allowed_in_core(target: str) -> bool:
    return target == "sidecar" or any(target == p or target.startswith(p + ".")
                                      for p in CORE_MAY_IMPORT)


def test_core_imports_only_core_and_contract() -> None:
    offenders = []
    for name, targets in graph().items():
        if not (name == "sidecar.core" or name.startswith("sidecar.core.")):
            continue
        offenders += [f"{name} -> {t}" for t in sorted(targets) if not allowed_in_core(t)]
    assert offenders == []


def test_importing_the_engine_loads_no_adapter() -> None:
    """In a fresh interpreter, the service loads no adapter, transport or SDK: they come
    from the composition root, when it builds them."""
    script = ("import json, sys; import sidecar.core.service; "
              "print(json.dumps(sorted(sys.modules)))")
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=PACKAGE.parent, timeout=120)
    assert proc.returncode == 0, proc.stderr[-4000:]
    loaded = json.loads(proc.stdout.strip().splitlines()[-1])
    assert "sidecar.core.service" in loaded
    offenders = [m for m in loaded if any(m == p or m.startswith(p + ".") for p in NOT_LOADED_BY_CORE)]
    assert offenders == []
    outside = [m for m in loaded if m.startswith("sidecar") and m != "sidecar"
               and not allowed_in_core(m)]
    assert outside == []


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(edges.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return out


def test_no_import_cycles_visible_or_hidden() -> None:
    # A package importing its own modules (its __init__ re-exporting them) is no cycle.
    edges = {name: {t for t in targets if not name.startswith(t + ".")}
             for name, targets in graph().items()}
    assert strongly_connected(edges) == []


def test_the_checks_see_real_imports() -> None:
    """The scanner finds the engine's own imports, so the two tests above cannot pass by
    seeing nothing."""
    edges = graph()
    assert "sidecar.core.ports" in edges["sidecar.core.session"]
    # Function-level imports are seen too (the composition root builds adapters lazily).
    assert "sidecar.mcp.workspaces" in edges["sidecar.composition"]
    assert not allowed_in_core("sidecar.mcp.workspaces") and not allowed_in_core("sidecar.host")
    assert allowed_in_core("sidecar.contract.results") and not allowed_in_core("sidecar.corex")
    assert "sidecar.core.session" in edges["sidecar.core.service"]
    assert any(t.startswith("sidecar.core") for t in edges["sidecar.providers.anthropic_messages"])


# How large a piece of the engine may grow before it is split: a class a newcomer reads in
# one sitting, a module that holds one subject.
MAX_METHODS = 30
MAX_LINES = 600


def test_engine_classes_and_modules_stay_small() -> None:
    """No class of ``sidecar.core`` defines more than MAX_METHODS functions in its body (a
    property counts as one; a function nested in a method does not), and no module there
    runs past MAX_LINES lines."""
    core = PACKAGE / "core"
    large_classes, long_modules = [], []
    for path in sorted(core.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = len(text.splitlines())
        if lines > MAX_LINES:
            long_modules.append(f"{module_name(path)}: {lines} lines")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ClassDef):
                methods = sum(isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                              for item in node.body)
                if methods > MAX_METHODS:
                    large_classes.append(f"{module_name(path)}.{node.name}: {methods} methods")
    assert (large_classes, long_modules) == ([], [])
