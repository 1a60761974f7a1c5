"""Editor context a client attaches to a prompt (@file as ``resource_link``, a selection or
the current file as ``resource``) is context the engine counts and shows, not text pasted
into what the user typed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sidecar.fake_llm import Reply
from tests.e2e.session_client import call, initialize, settings_for, start_client, stop_client

pytestmark = pytest.mark.asyncio(loop_scope="module")


async def test_attached_file_and_selection_are_counted_and_shown(llm: Any, tmp_path: Path,
                                                                 workspace: Path) -> None:
    big = workspace / "big.py"
    big.write_text("".join(f"def g{i}(x):\n    return x + {i}\n" for i in range(400)))
    selection = "def hello():\n    return 'hi'\n"
    client = await start_client()
    await initialize(client, settings_for("anthropic", llm.url, tmp_path / "store"))
    try:
        sid = (await call(client, "session/new", {"cwd": str(workspace)}))["sessionId"]
        before = (await call(client, "sidecar/gauge", {"sessionId": sid}))["used"]
        llm.queue(Reply.text("Both seen."))
        await call(client, "session/prompt", {"sessionId": sid, "prompt": [
            {"type": "text", "text": "explain these"},
            {"type": "resource_link", "uri": big.as_uri(), "name": "big.py"},
            {"type": "resource", "resource": {"uri": (workspace / "hello.py").as_uri() + "#L1-2",
                                              "text": selection, "mimeType": "text/x-python"}},
        ]})
        view = await call(client, "sidecar/context", {"sessionId": sid})
        sent = [r for r in llm.requests if r.call == "main"][-1].body["messages"]
    finally:
        await stop_client(client)
    # The context view lists both, with their sizes; the gauge counts them.
    attached = view["editorContext"]
    assert [(a["source"], Path(a["path"]).name) for a in attached] == [("file", "big.py"),
                                                                        ("selection", "hello.py")]
    assert attached[0]["tokens"] > 1000 and 5 < attached[1]["tokens"] < 100
    assert attached[1]["lines"] == "1-2"
    assert view["gauge"]["used"] > before + attached[0]["tokens"]
    # The model reads the file and the selection beside the question, said for what they are;
    # what the user typed stays as typed.
    last_user = sent[-1]["content"]
    texts = [b["text"] for b in last_user if b.get("type") == "text"]
    assert texts[-1] == "explain these"
    joined = json.dumps(texts[:-1])
    assert "big.py" in joined and "def g399" in joined and "return 'hi'" in joined
    assert "selected" in joined and "attached" in joined
