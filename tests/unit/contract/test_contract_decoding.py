"""The decoder: what it accepts, and the message and ``data.field`` of what it refuses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from sidecar.contract.decoding import decode
from sidecar.contract.errors import InvalidParams
from sidecar.contract.params import (
    CompactParams,
    DocumentChangeParams,
    FilesChangedParams,
    HistoryListParams,
    LoadSessionParams,
    NewSessionParams,
    NoParams,
    PromptParams,
    SessionParams,
    SetModelParams,
)
from sidecar.contract.uris import uri_to_path

REFUSED = [
    (SessionParams, None, "sessionId is required and must be a string", "sessionId"),
    (SessionParams, {"sessionId": ""}, "sessionId is required and must be a string", "sessionId"),
    (SessionParams, {"sessionId": 7}, "sessionId is required and must be a string", "sessionId"),
    (NewSessionParams, {"cwd": 42}, "cwd is required and must be an absolute path string", "cwd"),
    (NewSessionParams, {"cwd": "relative/dir"}, "cwd is required and must be an absolute path string", "cwd"),
    (NewSessionParams, {"cwd": "/w", "model": 1}, "model must be a string", "model"),
    (NewSessionParams, {"cwd": "/w", "title": ["t"]}, "title must be a string", "title"),
    (LoadSessionParams, {"sessionId": "s", "cwd": "rel"}, "cwd must be an absolute path string", "cwd"),
    (LoadSessionParams, {"sessionId": "s", "cwd": "/a\x00b"}, "cwd must be an absolute path string", "cwd"),
    (SetModelParams, {"sessionId": "s"}, "model is required and must be a string", "model"),
    (SetModelParams, {"sessionId": "s", "model": "m", "provider": 3}, "provider must be a string", "provider"),
    (CompactParams, {"sessionId": "s", "instructions": 3}, "instructions must be a string", "instructions"),
    (CompactParams, {"sessionId": "s", "workDoneToken": [1]}, "workDoneToken must be a string or an integer",
     "workDoneToken"),
    (HistoryListParams, {"limit": 0}, "limit must be a positive integer", "limit"),
    (HistoryListParams, {"limit": True}, "limit must be a positive integer", "limit"),
    (HistoryListParams, {"limit": "5"}, "limit must be a positive integer", "limit"),
    (HistoryListParams, {"project": 5}, "project must be a string", "project"),
    (PromptParams, {"sessionId": "s", "prompt": "hi"}, "prompt must be a non-empty array of content blocks", "prompt"),
    (PromptParams, {"sessionId": "s", "prompt": []}, "prompt must be a non-empty array of content blocks", "prompt"),
    (PromptParams, {"sessionId": "s", "prompt": [{"type": "text"}]}, "prompt[0].text must be a string", "prompt"),
    (PromptParams, {"sessionId": "s", "prompt": [{"type": "video"}]}, "prompt[0].type 'video' is not supported",
     "prompt"),
    (PromptParams, {"sessionId": "s", "prompt": [{"type": "text", "text": "a"}, {"type": "image"}]},
     "prompt[1] image needs mimeType and data", "prompt"),
    (FilesChangedParams, {"changes": [{"type": 1}]}, "changes is required and must be an array of file events "
     "with a uri", "changes"),
]


@pytest.mark.parametrize(("cls", "params", "message", "field"), REFUSED,
                         ids=[f"{c.__name__}-{f}-{i}" for i, (c, _, _, f) in enumerate(REFUSED)])
def test_refusals_name_the_field(cls: type, params: Any, message: str, field: str) -> None:
    with pytest.raises(InvalidParams) as err:
        decode(cls, params)
    assert err.value.code == -32602
    assert err.value.message == message
    assert err.value.data == {"field": field}


def test_params_that_are_not_an_object_are_refused_as_a_whole() -> None:
    with pytest.raises(InvalidParams) as err:
        decode(NoParams, [1, 2])
    assert err.value.message == "params must be an object" and err.value.data is None


def test_null_is_absent_and_absent_params_are_empty() -> None:
    assert decode(CompactParams, {"sessionId": "s", "instructions": None}) == CompactParams(session_id="s")
    assert decode(HistoryListParams, None) == HistoryListParams()
    assert decode(NoParams, {"whatever": 1}) == NoParams()


def test_an_empty_optional_string_is_kept() -> None:
    # An empty title is a title the client chose; only a missing one is derived from the prompt.
    assert decode(NewSessionParams, {"cwd": "/w", "title": ""}).title == ""


def test_a_prompt_keeps_only_what_each_block_carries() -> None:
    decoded = decode(PromptParams, {"sessionId": "s", "prompt": [
        {"type": "text", "text": "hi", "annotations": {"x": 1}},
        {"type": "resource_link", "uri": "file:///w/a.py", "name": "a.py"}]})
    assert decoded.prompt == [{"type": "text", "text": "hi"},
                              {"type": "resource_link", "uri": "file:///w/a.py", "name": "a.py"}]


def test_progress_tokens_are_strings_or_integers() -> None:
    assert decode(CompactParams, {"sessionId": "s", "workDoneToken": 7}).work_done_token == 7
    assert decode(CompactParams, {"sessionId": "s", "workDoneToken": "t"}).work_done_token == "t"


def test_a_document_change_carries_the_text_only_when_sent_whole() -> None:
    def change(*changes: Any) -> DocumentChangeParams:
        return decode(DocumentChangeParams, {"uri": "file:///w/a.py", "contentChanges": list(changes)})

    assert change({"text": "whole"}).whole_text == "whole"
    assert change({"text": "whole"}, {"range": {"start": {}}, "text": "part"}).whole_text is None
    assert change().whole_text is None
    assert change({"range": None, "text": ""}).whole_text == ""


def test_uris_name_paths() -> None:
    assert uri_to_path("file:///w/my%20dir/a.py") == Path("/w/my dir/a.py")
    assert uri_to_path("/w/plain.py") == Path("/w/plain.py")
    changes = decode(FilesChangedParams, {"changes": [{"uri": "file:///w/CLAUDE.md", "type": 2}]})
    assert changes.paths == {Path("/w/CLAUDE.md")}
