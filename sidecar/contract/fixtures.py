"""The golden fixtures: one JSON-RPC message per shape of the contract, under docs/contract/.

    python -m sidecar.contract.fixtures            write them (after changing the contract)
    python -m sidecar.contract.fixtures --check    exit 1 when the committed ones differ

``index.json`` lists them: the protocol version, every request with its params and result
files, the client's notifications, the server's notifications (``session/update`` by kind)
and requests, and every error code by name. The Python suite fails when the committed files
differ from what this module generates; the VS Code and Neovim tests read them to check
their clients' mirrors of the contract.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sidecar.contract import examples, methods
from sidecar.contract.decoding import encode
from sidecar.contract.updates import UPDATE_KINDS
from sidecar.contract.version import PROTOCOL_VERSION

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "docs" / "contract"


def _slug(method: str) -> str:
    return method.replace("/", "-")


def _request(method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}


def _answer(result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "result": result}


def _notification(method: str, params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "method": method, "params": params}


def generate() -> dict[str, Any]:
    """Every fixture file by its path under the fixtures folder, ``index.json`` included."""
    files: dict[str, Any] = {}
    kinds: dict[str, str] = {}
    index: dict[str, Any] = {"protocolVersion": PROTOCOL_VERSION, "requests": {},
                             "notifications": {},
                             "serverNotifications": {methods.SESSION_UPDATE: {"kinds": kinds}},
                             "serverRequests": {}, "errors": {}}

    for req in examples.requests():
        base = f"requests/{_slug(req.method)}"
        files[f"{base}.params.json"] = _request(req.method, encode(req.params))
        files[f"{base}.result.json"] = _answer(req.result)
        index["requests"][req.method] = {"params": f"{base}.params.json",
                                         "result": f"{base}.result.json"}

    for note in examples.client_notifications():
        path = f"notifications/{_slug(note.method)}.json"
        files[path] = _notification(note.method, encode(note.params))
        index["notifications"][note.method] = {"params": path}

    for note in examples.server_notifications():
        path = f"server/{_slug(note.method)}.json"
        files[path] = _notification(note.method, note.params)
        index["serverNotifications"][note.method] = {"params": path}

    updates = examples.session_updates()
    covered = [params["update"]["sessionUpdate"] for params in updates]
    if covered != list(UPDATE_KINDS):
        raise AssertionError(f"the examples cover {covered}, the contract has {list(UPDATE_KINDS)}")
    for kind, params in zip(covered, updates):
        path = f"updates/{kind}.json"
        files[path] = _notification(methods.SESSION_UPDATE, params)
        kinds[kind] = path

    for method, params, result in examples.server_requests():
        base = f"server/{_slug(method)}"
        files[f"{base}.params.json"] = _request(method, params)
        files[f"{base}.result.json"] = _answer(result)
        index["serverRequests"][method] = {"params": f"{base}.params.json",
                                           "result": f"{base}.result.json"}

    for err in examples.errors():
        path = f"errors/{err.name}.json"
        error: dict[str, Any] = {"code": err.code, "message": err.message}
        if err.data is not None:
            error["data"] = err.data
        files[path] = {"jsonrpc": "2.0", "id": err.request_id, "error": error}
        index["errors"][err.name] = {"code": err.code, "file": path}

    files["index.json"] = index
    return files


def render(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def differences(folder: Path) -> list[str]:
    """What differs between ``folder`` and the generated fixtures (empty when nothing)."""
    wanted = {name: render(value) for name, value in generate().items()}
    present = {p.relative_to(folder).as_posix() for p in folder.rglob("*.json")} if folder.is_dir() else set()
    out = [f"missing: {name}" for name in sorted(wanted.keys() - present)]
    out += [f"not generated: {name}" for name in sorted(present - wanted.keys())]
    out += [f"differs: {name}" for name in sorted(wanted.keys() & present)
            if (folder / name).read_text(encoding="utf-8") != wanted[name]]
    return out


def write(folder: Path) -> None:
    wanted = {name: render(value) for name, value in generate().items()}
    if folder.is_dir():
        for stale in folder.rglob("*.json"):
            if stale.relative_to(folder).as_posix() not in wanted:
                stale.unlink()
    for name, text in wanted.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sidecar.contract.fixtures",
                                     description="Write or check the contract's golden fixtures.")
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT_DIR)
    parser.add_argument("--check", action="store_true", help="only compare; exit 1 on a difference")
    args = parser.parse_args(argv)
    if args.check:
        # A report on stderr, as the sidecar's own modules never write to stdout (the wire).
        found = differences(args.folder)
        if found:
            sys.stderr.write("\n".join([*found, "run: python -m sidecar.contract.fixtures", ""]))
        return 1 if found else 0
    write(args.folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
