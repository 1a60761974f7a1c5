"""End-to-end fixtures: the real sidecar process (pytest-lsp) and the fake LLM server."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import LanguageClient

from sidecar import PROTOCOL_VERSION
from sidecar.fake_llm import FakeLLMServer
from tests.invariant_checks import fail_on_violations

KEY_ENV = "FAKE_LLM_KEY"


@pytest.fixture(scope="session")
def fake_llm() -> Any:
    srv = FakeLLMServer().start()
    yield srv
    srv.stop()


@pytest.fixture()
def llm(fake_llm: Any, request: pytest.FixtureRequest) -> Any:
    """The shared fake, reset; the test fails if any request broke an invariant.

    Tests that mean to send what the API refuses mark themselves ``allow_violations``.
    """
    fake_llm.reset()
    fake_llm.strict = True
    yield fake_llm
    fail_on_violations(fake_llm, request)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def sidecar_pool(fake_llm: Any, tmp_path_factory: Any) -> Any:
    """The module's shared sidecar processes (``SidecarPool``); its tests run on the
    module's loop (``pytestmark = pytest.mark.asyncio(loop_scope="module")``)."""
    from tests.e2e.session_client import SidecarPool

    pool = SidecarPool(fake_llm.url, tmp_path_factory)
    yield pool
    await pool.stop()


@pytest_asyncio.fixture(loop_scope="module")
async def sidecars(sidecar_pool: Any, llm: Any) -> Any:
    """The shared processes for one test: what it opened is closed as it ends, before the
    fake is checked and reset for the next."""
    yield sidecar_pool
    await sidecar_pool.release()


@pytest.fixture()
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "hello.py").write_text("def hello():\n    return 'hi'\n")
    return ws


def client_capabilities(permission: bool = True) -> types.ClientCapabilities:
    return types.ClientCapabilities(
        workspace=types.WorkspaceClientCapabilities(apply_edit=True, configuration=False),
        window=types.WindowClientCapabilities(work_done_progress=True),
        experimental={"contextSidecar": {"protocolVersion": PROTOCOL_VERSION, "permissionRequests": permission,
                                         "compactionUpdates": True}},
    )


def raw_json(client: LanguageClient) -> None:
    """Keep custom payloads as plain dicts on the test client (pygls makes namedtuples)."""
    from pygls.protocol import JsonRPCNotification, JsonRPCRequestMessage, JsonRPCResponseMessage

    def keep(obj: dict[str, Any], cls: type) -> Any:
        return cls(**obj)

    for cls in (JsonRPCRequestMessage, JsonRPCNotification, JsonRPCResponseMessage):
        client.protocol._converter.register_structure_hook(cls, keep)
