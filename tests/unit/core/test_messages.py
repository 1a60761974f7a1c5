"""The message model's small helpers: usage sums, block coercion, roles and views."""

from __future__ import annotations

from sidecar.core.conversation.messages import Message, Usage, as_blocks


def test_usage_from_json_ignores_junk_and_sums_the_window() -> None:
    u = Usage.from_json({"input_tokens": 3, "cache_creation_input_tokens": 2_000,
                         "cache_read_input_tokens": "many", "output_tokens": -4,
                         "service_tier": "standard"})
    assert u == Usage(3, 2_000, 0, 0)
    assert Usage.from_json(None) is None and Usage.from_json([1]) is None
    full = Usage(1, 2_691, 30_635, 223)
    assert full.context_tokens == 33_550 and full.prompt_tokens == 33_327
    assert Usage().is_zero() and not full.is_zero()
    assert Usage.from_json(full.to_json()) == full


def test_as_blocks() -> None:
    assert as_blocks("hi") == [{"type": "text", "text": "hi"}]
    assert as_blocks("") == []
    assert as_blocks(["a", {"type": "image", "source": {}}, {"no": "type"}, 5]) == [
        {"type": "text", "text": "a"}, {"type": "image", "source": {}}]
    assert as_blocks(None) == []


def test_roles_and_views() -> None:
    m = Message(kind="assistant", content=[
        {"type": "text", "text": "a"}, {"type": "tool_use", "id": "t", "name": "X", "input": {}},
        {"type": "text", "text": "b"}])
    assert m.role == "assistant" and m.text() == "ab" and len(m.tool_uses()) == 1
    for kind in ("user", "system", "attachment", "hook_result", "progress"):
        assert Message(kind=kind, content=[]).role == "user"  # type: ignore[arg-type]
    assert Message(kind="assistant", content=[], model="<synthetic>").is_synthetic
