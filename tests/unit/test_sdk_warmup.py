"""The warm-up loads the SDK of the provider in use, off the loop, and not the other one."""

from __future__ import annotations

import json
import subprocess
import sys

SCRIPT = """
import asyncio, json, sys
from sidecar.sdk_warmup import SdkWarmUp

async def main():
    warm = SdkWarmUp()
    warm.start({first!r})
    await warm.ready()
    after_start = {{n: n in sys.modules for n in ("anthropic", "openai")}}
    await warm.ready({then!r})
    after_ready = {{n: n in sys.modules for n in ("anthropic", "openai")}}
    print(json.dumps([after_start, after_ready]))

asyncio.run(main())
"""


def _run(first: str, then: str) -> list[dict[str, bool]]:
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(first=first, then=then)],
                         capture_output=True, text=True, timeout=120, check=True)
    return json.loads(out.stdout)


def test_only_the_providers_sdk_loads_and_another_loads_when_a_session_needs_it() -> None:
    after_start, after_ready = _run("anthropic", "openai-compatible")
    assert after_start == {"anthropic": True, "openai": False}
    assert after_ready == {"anthropic": True, "openai": True}


def test_an_openai_sidecar_does_not_load_anthropics_sdk() -> None:
    after_start, _ = _run("openai", "openai")
    assert after_start == {"anthropic": False, "openai": True}
