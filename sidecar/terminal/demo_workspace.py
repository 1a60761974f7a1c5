"""The demo's sample project: a small inventory package with several multi-KB modules.

Generated, not copied: each module is a set of plausible functions built from a few
templates, with numbered ``TODO(demo-N)`` lines the scripted agent later fixes with Edit.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

MODULES = {
    "models": ("item", "stock level", "supplier", "warehouse", "batch", "shelf", "order line", "return"),
    "pricing": ("discount", "unit price", "bulk rate", "tax", "margin", "markup", "coupon", "rounding"),
    "storage": ("snapshot", "journal", "index", "backup", "checkpoint", "ledger", "cursor", "archive"),
    "reports": ("weekly summary", "low stock", "turnover", "valuation", "aging", "shrinkage", "forecast", "audit"),
    "importer": ("csv row", "header", "unit", "sku", "barcode", "location", "date", "quantity"),
    "validation": ("sku format", "price range", "quantity", "supplier code", "date order", "currency", "weight", "dimensions"),
}
CLAUDE_MD = """# Inventory service

A small Python package that tracks stock across warehouses and prices orders.

## Layout
- `inventory/models.py`: the data classes.
- `inventory/pricing.py`: discounts, taxes and rounding rules.
- `inventory/storage.py`: the on-disk journal and snapshots.
- `inventory/reports.py`: weekly and audit reports.
- `inventory/importer.py`: CSV import of supplier files.
- `inventory/validation.py`: checks every imported row.

## Conventions
- Money is kept in integer cents; convert only when printing.
- Every public function has a docstring and type hints.
- Run `python3 -m compileall -q inventory` before committing.

## Compact Instructions
When summarizing, keep the list of files that were edited and why.
"""


@dataclass(frozen=True)
class Todo:
    path: str
    line: str
    fix: str


def _slug(words: str) -> str:
    return words.replace(" ", "_")


def _function(module: str, topic: str, k: int, rng: random.Random, todo: str | None) -> str:
    name = _slug(topic)
    rate = rng.choice((0.05, 0.1, 0.15, 0.2, 0.25))
    limit = rng.randint(3, 40) * 10
    body = [
        f"def compute_{name}(records: list[Record], rate: float = {rate}) -> int:",
        f'    """Return the {topic} total, in cents, for the given records.',
        "",
        "    Records without a quantity are skipped. The rate is applied once per record and the",
        f"    result is capped at {limit} units per record so a bad row cannot dominate the total.",
        '    """',
        "    total = 0",
        "    for record in records:",
        "        if record.quantity <= 0:",
        "            continue",
        f"        units = min(record.quantity, {limit})",
        "        total += round(record.price_cents * units * (1 + rate))",
    ]
    if todo:
        body.append(f"    {todo}")
    body += [
        "    return total",
        "",
        "",
        f"def describe_{name}(record: Record) -> str:",
        f'    """A one-line, human-readable description of the {topic} of one record."""',
        f'    return f"{{record.sku}}: {topic} {{record.quantity}} x {{record.price_cents / 100:.2f}}"',
        "",
        "",
        f"class {''.join(w.capitalize() for w in topic.split())}Tracker:",
        f'    """Keeps a running {topic} per warehouse and reports the largest ones."""',
        "",
        "    def __init__(self) -> None:",
        "        self.by_warehouse: dict[str, int] = {}",
        "",
        "    def add(self, warehouse: str, amount: int) -> None:",
        "        self.by_warehouse[warehouse] = self.by_warehouse.get(warehouse, 0) + amount",
        "",
        f"    def top(self, n: int = {rng.randint(3, 9)}) -> list[tuple[str, int]]:",
        "        ranked = sorted(self.by_warehouse.items(), key=lambda kv: kv[1], reverse=True)",
        "        return ranked[:n]",
        "",
        "",
    ]
    return "\n".join(body)


def create_workspace(root: Path, seed: int = 7) -> list[Todo]:
    """Write the project under ``root``; return the TODO lines in the order to fix them."""
    rng = random.Random(seed)
    pkg = root / "inventory"
    pkg.mkdir(parents=True, exist_ok=True)
    (root / "tests").mkdir(exist_ok=True)
    (root / "CLAUDE.md").write_text(CLAUDE_MD, encoding="utf-8")
    (root / "README.md").write_text(
        "# inventory\n\nStock tracking and pricing. See CLAUDE.md for the layout.\n", encoding="utf-8")
    (pkg / "__init__.py").write_text('"""Inventory tracking and pricing."""\n', encoding="utf-8")
    todos: list[Todo] = []
    n = 0
    for module, topics in MODULES.items():
        parts = [
            f'"""{module.capitalize()}: part of the inventory package."""',
            "",
            "from __future__ import annotations",
            "",
            "from dataclasses import dataclass",
            "",
            "",
            "@dataclass",
            "class Record:",
            "    sku: str",
            "    quantity: int",
            "    price_cents: int",
            "    warehouse: str = 'main'",
            "",
            "",
        ]
        for k, topic in enumerate(topics):
            todo = None
            if k % 3 == 1:
                n += 1
                todo = f"# TODO(demo-{n}): log records skipped for a zero quantity"
                fix = f"log_skipped({module!r}, {n})  # fixed demo-{n}: skipped records are logged"
                todos.append(Todo(f"inventory/{module}.py", todo, fix))
            parts.append(_function(module, topic, k, rng, todo))
        parts.append("def log_skipped(module: str, marker: int) -> None:\n"
                     '    """Record that rows were skipped (a hook for the audit report)."""\n'
                     "    _SKIPPED.append((module, marker))\n\n\n_SKIPPED: list[tuple[str, int]] = []\n")
        (pkg / f"{module}.py").write_text("\n".join(parts), encoding="utf-8")
        (root / "tests" / f"test_{module}.py").write_text(
            f"from inventory.{module} import Record\n\n\n"
            f"def test_record_defaults() -> None:\n"
            f"    assert Record('A-1', 1, 100).warehouse == 'main'\n", encoding="utf-8")
    rows = ["sku,quantity,price_cents,warehouse,supplier,received"]
    for i in range(700):
        rows.append(f"SKU-{i:05d},{rng.randint(0, 500)},{rng.randint(50, 99999)},"
                    f"{rng.choice(['north', 'south', 'east', 'west'])},SUP-{rng.randint(1, 60):03d},"
                    f"2026-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}")
    (root / "data").mkdir(exist_ok=True)
    (root / "data" / "supplier_feed.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return todos
