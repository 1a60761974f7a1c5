"""The layers hold: the engine (``sidecar.core``) imports no transport and no adapter, and no
module imports itself back through others, at run time, in a function, or for types alone."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "sidecar"
# What the engine must not know: the transports, the adapters behind its ports, and the
# programs built on it. It may use the process-level helpers (credentials, host).
OUTSIDE_CORE = ("protocol", "acp", "providers", "tools", "storage", "watch", "fake_llm",
                "replay", "terminal", "composition", "cli")


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


def test_core_imports_no_transport_and_no_adapter() -> None:
    offenders = []
    for name, targets in graph().items():
        if not name.startswith("sidecar.core"):
            continue
        for target in targets:
            parts = target.split(".")
            if len(parts) > 1 and parts[1] in OUTSIDE_CORE:
                offenders.append(f"{name} -> {target}")
    assert offenders == []


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
    assert "sidecar.core.session" in edges["sidecar.core.service"]
    assert any(t.startswith("sidecar.core") for t in edges["sidecar.providers.anthropic_messages"])
