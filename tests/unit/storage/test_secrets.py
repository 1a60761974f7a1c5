"""Keys by exact value, whatever their shape: on disk, in logs, in errors and notifications,
and out of the environment block and the environment of every child process."""

from __future__ import annotations

import io
import json
import logging
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from sidecar.core.conversation.messages import user_text
from sidecar.core.secrets.redaction import (
    MIN_SECRET_LENGTH,
    REDACTED_KEY,
    RedactingEditor,
    redact_api_keys,
    redact_exception,
    redact_value,
    register_secret,
)
from sidecar.storage.history import PromptHistory
from sidecar.storage.history_entry import HistoryEntry, PastedContent
from sidecar.storage.transcript import TranscriptWriter
from sidecar.storage.transcript_loader import load_transcript

SHORT_KEY = "k3y-Zq8w"  # 8 characters: far below the sk- pattern's floor
ODD_KEY = 'a"b\\c-{q}:9'  # JSON escapes it: the serialized record holds another spelling
SID = "s-1"


def test_short_and_odd_keys_never_reach_a_transcript(tmp_path: Path) -> None:
    register_secret(SHORT_KEY)
    register_secret(ODD_KEY)
    writer = TranscriptWriter(tmp_path)
    writer.append(user_text(f"my key is {SHORT_KEY} and {ODD_KEY}"), SID, "/w")
    writer.append(user_text("nested", extra={"deep": [{SHORT_KEY: ODD_KEY}]}), SID, "/w")
    writer.close()
    raw = writer.path_for(SID, "/w").read_bytes()
    assert SHORT_KEY.encode() not in raw
    assert ODD_KEY.encode() not in raw and json.dumps(ODD_KEY)[1:-1].encode() not in raw
    for line in raw.splitlines():
        json.loads(line)  # redaction never breaks a record
    assert raw.count(REDACTED_KEY.encode()) == 4


def test_short_key_never_reaches_history_or_the_paste_store(tmp_path: Path) -> None:
    register_secret(SHORT_KEY)
    history = PromptHistory(tmp_path)
    history.add(HistoryEntry(f"use {SHORT_KEY}", pasted_contents={
        1: PastedContent(1, "text", f"KEY={SHORT_KEY}\n" + "pad\n" * 400)}))
    history.close()
    everything = b"".join(p.read_bytes() for p in tmp_path.rglob("*") if p.is_file())
    assert SHORT_KEY.encode() not in everything and REDACTED_KEY.encode() in everything


def test_loaded_transcripts_are_redacted_too(tmp_path: Path) -> None:
    """A file written before the key was held (or by another tool) replays without it."""
    path = tmp_path / "old.jsonl"
    record = {"type": "user", "uuid": "u", "sessionId": SID, "cwd": "/w",
              "message": {"role": "user", "content": f"key {SHORT_KEY}"}}
    path.write_text(json.dumps(record) + "\n")
    register_secret(SHORT_KEY)
    loaded = load_transcript(path)
    assert loaded.messages[0].text() == f"key {REDACTED_KEY}"


def test_values_too_short_to_tell_from_words_are_left_alone(caplog: pytest.LogCaptureFixture) -> None:
    # Named: the replay runner quiets the "sidecar" logger when its tests run first.
    with caplog.at_level(logging.WARNING, logger="sidecar.core.secrets.redaction"):
        assert not register_secret("test")
    assert redact_api_keys("pytest tests") == "pytest tests"
    assert "too short to redact" in caplog.text
    assert "test" not in caplog.text  # the warning never shows the value itself
    assert register_secret("x" * MIN_SECRET_LENGTH)


def test_logs_errors_and_notifications(tmp_path: Path) -> None:
    register_secret(SHORT_KEY)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(message)s"))
    logger = logging.getLogger("secrets-test")
    logger.addHandler(handler)
    try:
        logger.warning("provider said %s", f"bad key {SHORT_KEY}")
        try:
            raise RuntimeError(f"echo {SHORT_KEY}")
        except RuntimeError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
    assert SHORT_KEY not in stream.getvalue() and REDACTED_KEY in stream.getvalue()

    from sidecar.contract.errors import ProviderFailed

    error = redact_exception(ProviderFailed(f"The provider failed: invalid key {SHORT_KEY}",
                                            data={"message": f"x {SHORT_KEY}", "status": 401}))
    assert SHORT_KEY not in str(error.args) + error.message + json.dumps(error.data)
    assert error.data["status"] == 401

    class Inner:
        def __init__(self) -> None:
            self.sent: list[Any] = []

        def session_update(self, sid: str, update: dict[str, Any]) -> None:
            self.sent.append(update)

        def status(self, kind: str, busy: bool, message: str) -> None:
            self.sent.append(message)

        def show_message(self, level: str, text: str) -> None:
            self.sent.append(text)

        def buffer_text(self, path: Path) -> str:
            return "passed through"

    inner = Inner()
    editor = RedactingEditor(inner)
    editor.session_update(SID, {"content": {"text": f"chunk {SHORT_KEY}"}, "n": 1})
    editor.status("warning", True, f"Provider error ({SHORT_KEY}); retry 1")
    editor.show_message("error", SHORT_KEY)
    assert SHORT_KEY not in json.dumps(inner.sent)
    assert editor.buffer_text(Path("/x")) == "passed through"


def test_redaction_leaves_clean_values_alone_and_handles_depth() -> None:
    register_secret(SHORT_KEY)
    clean = {"a": [1, 2.5, None, True, {"b": "text"}]}
    assert redact_value(clean) is clean  # nothing copied when nothing matches
    deep: Any = SHORT_KEY
    for _ in range(5000):  # deeper than Python's recursion limit
        deep = [deep]
    out = redact_value(deep)
    for _ in range(5000):
        out = out[0]
    assert out == REDACTED_KEY


KEY_SCRIPT = r"""
import json, os, subprocess, sys
from sidecar.credentials import take_environment
from sidecar.core.secrets.held_keys import child_environment, hold
take_environment()
import sidecar.credentials as c
own = open(f"/proc/{os.getpid()}/environ", "rb").read().decode() if os.path.exists("/proc") else ""
child = subprocess.run([sys.executable, "-c", "import os; print(dict(os.environ))"],
                       env=child_environment("MY_LLM_KEY"), capture_output=True, text=True).stdout
print(json.dumps({"state": c.handoff_state, "block": own, "pid": os.getpid(),
                  "environ_has_anthropic": "ANTHROPIC_API_KEY" in os.environ,
                  "held": hold("ANTHROPIC_API_KEY"), "other": os.environ.get("OTHER_SETTING"),
                  "custom_in_environ": "MY_LLM_KEY" in os.environ, "child": child}))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/<pid>/environ")
def test_the_environment_block_holds_no_key_after_start() -> None:
    """What ``cat /proc/<sidecar pid>/environ`` shows: only harmless variables, even for a
    variable the editor names as apiKeyEnv only later (MY_LLM_KEY)."""
    env = {**os.environ, "ANTHROPIC_API_KEY": "sk-ant-" + "z" * 30, "MY_LLM_KEY": SHORT_KEY,
           "OTHER_SETTING": "kept"}
    env.pop("CONTEXT_SIDECAR_KEEP_ENVIRONMENT", None)
    proc = subprocess.run([sys.executable, "-c", KEY_SCRIPT], env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["state"] == "received"
    assert "ANTHROPIC_API_KEY" not in out["block"] and SHORT_KEY not in out["block"]
    assert "z" * 30 not in out["block"] and "OTHER_SETTING" not in out["block"]
    assert "PATH=" in out["block"]  # what the interpreter needs stays
    assert not out["environ_has_anthropic"] and out["held"] == "sk-ant-" + "z" * 30
    assert out["other"] == "kept"  # every other variable came through the pipe
    assert SHORT_KEY not in out["child"] and "z" * 30 not in out["child"]
    assert "OTHER_SETTING" in out["child"]


def test_tracebacks_printed_outside_logging_are_redacted() -> None:
    script = (
        "import threading\n"
        "from sidecar.core.secrets.redaction import register_secret\n"
        f"register_secret({SHORT_KEY!r})\n"
        f"def boom(): raise OSError(2, 'gone {SHORT_KEY}', '/tmp/{SHORT_KEY}')\n"
        "t = threading.Thread(target=boom); t.start(); t.join()\n"
        f"raise RuntimeError('uncaught {SHORT_KEY}')\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert "uncaught [REDACTED_API_KEY]" in proc.stderr and "gone [REDACTED_API_KEY]" in proc.stderr
    assert SHORT_KEY not in proc.stderr
