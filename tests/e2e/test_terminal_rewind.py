"""``/rewind`` and ``/fork`` in ``context-sidecar chat``, run as a real process against the real
sidecar and the fake model: the checkpoints listed, the preview asked about, the files on disk
after each rewind, the rewound prompt offered again, and what the model is sent next."""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

from sidecar.fake_llm import Reply
from tests.e2e.test_terminal import ChatProcess, PtyChat, chat_env


def header(request: Any, name: str) -> str | None:
    return next((v for k, v in request.headers.items() if k.lower() == name), None)


def last_text(request: Any) -> str:
    content = request.body["messages"][-1]["content"]
    if isinstance(content, str):
        return content
    return "\n".join(str(b.get("text", "")) for b in content if isinstance(b, dict) and b.get("type") == "text")


def asked(llm: Any, text: str) -> Any:
    """The last request of a conversation's own whose last message says ``text``."""
    found = [r for r in llm.requests if text in last_text(r)
             and (header(r, "x-context-sidecar-call") or "main") == "main"]
    assert found, f"no request asked {text!r}"
    return found[-1]


def conversation(request: Any) -> str:
    return json.dumps(request.body["messages"])


def wait_count(chat: Any, text: str, times: int, timeout: float = 30) -> None:
    """Wait until ``text`` was printed ``times`` times."""
    deadline = time.monotonic() + timeout
    while chat.out.count(text) < times:
        assert time.monotonic() < deadline, chat.out
        time.sleep(0.05)
        while not chat._chunks.empty():
            chat.out += chat._chunks.get_nowait()


def files(ws: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(ws.iterdir()) if p.is_file()}


def responder_for(ws: Path) -> Any:
    """Prompt 1 reads and edits a.py and creates new.py; prompt 2 edits a.py and b.py and
    deletes gone.txt with the shell; anything else is answered with its own words."""
    a, b = str(ws / "a.py"), str(ws / "b.py")
    steps = {
        "make the first change": Reply.tool_use("Read", {"file_path": a}, id="r1"),
        "r1": Reply.tool_use("Edit", {"file_path": a, "old_string": "A0", "new_string": "A1"}, id="e1"),
        "e1": Reply.tool_use("Write", {"file_path": str(ws / "new.py"), "content": "N1\n"}, id="w1"),
        "w1": Reply.text("First change made."),
        "make the second change": Reply.tool_use("Edit", {"file_path": a, "old_string": "A1", "new_string": "A2"},
                                                 id="e2"),
        "e2": Reply.tool_use("Read", {"file_path": b}, id="r2"),
        "r2": Reply.tool_use("Edit", {"file_path": b, "old_string": "B0", "new_string": "B1"}, id="e3"),
        "e3": Reply.tool_use("Bash", {"command": "rm gone.txt"}, id="s1"),
        "s1": Reply.text("Second change made."),
    }

    def responder(request: Any) -> Any:
        if (header(request, "x-context-sidecar-call") or "main") != "main":
            return Reply.text("A summary.")
        content = request.body["messages"][-1]["content"]
        answered = [blk.get("tool_use_id") for blk in content if isinstance(blk, dict)
                    and blk.get("type") == "tool_result"] if isinstance(content, list) else []
        if answered:
            return steps.get(str(answered[-1]), Reply.text("Done."))
        said = last_text(request).strip().splitlines()[-1]
        return steps.get(said, Reply.text("Answer to: " + said))

    return responder


def test_rewind_and_fork_in_the_chat(fake_llm: Any, tmp_path: Path) -> None:
    llm = fake_llm
    llm.reset()
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "a.py").write_text("A0\n")
    (ws / "b.py").write_text("B0\n")
    (ws / "gone.txt").write_text("G0\n")
    llm.responder = responder_for(ws)
    env = chat_env(tmp_path, llm.url)
    settings = json.loads(env["CONTEXT_SIDECAR_SETTINGS"])
    env["CONTEXT_SIDECAR_SETTINGS"] = json.dumps({**settings, "permissions": {"defaultMode": "bypassPermissions"}})
    chat = ChatProcess(ws, env)
    try:
        chat.wait_for("] bypassPermissions> ")
        chat.send("make the first change")
        chat.wait_for("First change made.")
        chat.send("make the second change")
        chat.wait_for("Second change made.")
        assert files(ws) == {"a.py": "A2\n", "b.py": "B1\n", "new.py": "N1\n"}

        # The list: numbered from the oldest, with files and shell commands.
        chat.send("/rewind")
        out = chat.wait_for("/fork N: go on in a copy from there")
        listed = out[out.index("checkpoints, 1 the oldest:"):]
        assert "   1. make the first change\n" in listed and "   2. make the second change\n" in listed, listed
        assert "      files: a.py, new.py (created)\n" in listed, listed
        assert "      files: a.py, b.py\n" in listed, listed
        assert "      $ rm gone.txt  (shell: a rewind does not undo it)" in listed, listed

        # Code only: the preview, then y; "n" to another one changes nothing.
        chat.send("/rewind 1 code")
        chat.wait_for("rewind? [y] yes, [n] no > ")
        chat.send("n")
        chat.wait_for("rewind cancelled; nothing changed")
        assert files(ws) == {"a.py": "A2\n", "b.py": "B1\n", "new.py": "N1\n"}
        mark = len(chat.out)
        chat.send("/rewind 2 code")
        wait_count(chat, "rewind? [y] yes, [n] no > ", 2)
        preview = chat.out[mark:]
        assert "rewind to before prompt 2 (code): make the second change" in preview, preview
        assert "  restore   a.py\n" in preview and "  restore   b.py\n" in preview, preview
        assert "    -A2\n" in preview and "    +A1\n" in preview, preview
        assert "  $ rm gone.txt  (shell: what it changed is not undone)" in preview, preview
        chat.send("y")
        chat.wait_for("rewound to before prompt 2 (code)")
        chat.wait_for("not undone: $ rm gone.txt")
        assert "  restored: a.py\n" in chat.out[mark:] and "  restored: b.py\n" in chat.out[mark:]
        assert files(ws) == {"a.py": "A1\n", "b.py": "B0\n", "new.py": "N1\n"}

        # The conversation only: the files stay; the prompt is offered again (printed here,
        # with no line editor on a pipe); the next request goes on from the first turn.
        chat.send("/rewind 2 conversation")
        out = chat.wait_for("the prompt: make the second change")
        assert "not undone" not in out[out.rindex("/rewind 2 conversation"):]  # no code was touched
        assert files(ws) == {"a.py": "A1\n", "b.py": "B0\n", "new.py": "N1\n"}
        chat.send("try it another way")
        chat.wait_for("Answer to: try it another way")
        again = asked(llm, "try it another way")
        sent = conversation(again)
        assert "make the first change" in sent and "First change made." in sent
        assert "make the second change" not in sent and "Second change made." not in sent
        assert not any("/rewind" in conversation(r) or "/fork" in conversation(r) for r in llm.requests)

        # A fork before the latest prompt: its history is shown and the chat goes on in it.
        mark = len(chat.out)
        chat.send("/fork 2")
        chat.wait_for("now in the fork: session ")
        chat.wait_for("the prompt: try it another way")
        forked = chat.out[mark:]
        assert "forked before prompt 2; the conversation so far:" in forked, forked
        assert "you> make the first change" in forked and "First change made." in forked, forked
        assert "you> try it another way" not in forked, forked
        new_id = re.search(r"now in the fork: session (\S+) ", forked)
        assert new_id, forked
        chat.send("a question in the fork")
        chat.wait_for("Answer to: a question in the fork")
        in_fork = asked(llm, "a question in the fork")
        assert "First change made." in conversation(in_fork) and "try it another way" not in conversation(in_fork)
        assert header(in_fork, "x-context-sidecar-session") == new_id.group(1)
        assert header(again, "x-context-sidecar-session") != new_id.group(1)

        # Everything, in the fork, after the user changed a.py: a conflict, overwritten with f.
        (ws / "a.py").write_text("A1 and the user's own line\n")
        mark = len(chat.out)
        chat.send("/rewind 1")
        chat.wait_for("[y] yes, leave the 1 changed file alone, [f] yes and overwrite them too, [n] no > ")
        preview = chat.out[mark:]
        assert "  conflict  a.py  (changed by someone else since; left alone unless you overwrite it)" in preview
        assert "  delete    new.py  (created after this point)" in preview, preview
        chat.send("f")
        chat.wait_for("rewound to before prompt 1 (code and conversation)")
        chat.wait_for("the prompt: make the first change")
        assert files(ws) == {"a.py": "A0\n", "b.py": "B0\n"}
        chat.send("start over")
        chat.wait_for("Answer to: start over")
        fresh = conversation(asked(llm, "start over"))
        assert "make the first change" not in fresh and "a question in the fork" not in fresh
        code = chat.finish()
    finally:
        if chat.proc.poll() is None:
            chat.proc.kill()
    assert code == 0, chat.out


def test_a_rewound_prompt_is_the_next_inputs_text_on_a_terminal(fake_llm: Any, tmp_path: Path) -> None:
    """On a terminal readline puts the rewound prompt on the input line: Enter sends it again,
    from the conversation as it stood before it."""
    llm = fake_llm
    llm.reset()
    ws = tmp_path / "ws"
    ws.mkdir()
    chat = PtyChat(ws, chat_env(tmp_path, llm.url))
    try:
        chat.wait_for("Ctrl-D exits")
        chat.wait_for("> ")
        for prompt, answer in (("the first question", "Answer one."), ("the second question", "Answer two.")):
            llm.queue(Reply.text(answer))
            chat.send(prompt)
            out = chat.wait_for(answer)
            chat.wait_for_prompt(out.index(answer))
        mark = len(chat.out)
        chat.send("/rewind 2 conversation")
        chat.wait_for("yours to send again")
        # The prompt line comes back holding the rewound prompt.
        deadline = time.monotonic() + 30
        while "> the second question" not in re.sub(r"\x1b\[[0-9;]*m|[\x01\x02]", "", chat.out[mark:]):
            assert time.monotonic() < deadline, chat.out[mark:]
            time.sleep(0.05)
            while not chat._chunks.empty():
                chat.out += chat._chunks.get_nowait()
        llm.queue(Reply.text("Answer three."))
        os.write(chat.master, b"\r")  # Enter: send it as it is
        out = chat.wait_for("Answer three.")
        chat.wait_for_prompt(out.index("Answer three."))
        assert chat.finish() == 0, chat.out
    finally:
        if chat.proc.poll() is None:
            chat.proc.kill()
    last = llm.requests[-1]
    assert last_text(last).strip().endswith("the second question"), last_text(last)
    sent = conversation(last)
    assert "the first question" in sent and "Answer one." in sent and "Answer two." not in sent
