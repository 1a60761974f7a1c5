"""The opaque ``encrypted_content`` the fake hands out on the Responses wire, and reading it back.

The real API returns reasoning and compaction state encrypted: a client cannot read it and
must pass it back unchanged, or the API refuses the request. The fake's version is a
signed envelope (base64 of a small JSON payload, then an HMAC of it), so the fake can
refuse a value that was altered, as the API refuses what it cannot decrypt, and can count
a compaction item as the summary it stands for rather than as its bytes.

The key is fixed: values stay valid across fake servers and processes, as the real
service's do across requests.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from typing import Any

PREFIX = "fakeenc_"
_KEY = b"context-sidecar fake LLM encrypted content"


def _tag(data: bytes) -> str:
    return hmac.new(_KEY, data, hashlib.sha256).hexdigest()[:32]


def seal(payload: dict[str, Any]) -> str:
    data = json.dumps(payload, sort_keys=True, ensure_ascii=False).encode("utf-8")
    return f"{PREFIX}{base64.urlsafe_b64encode(data).decode('ascii')}.{_tag(data)}"


def minted_here(value: object) -> bool:
    """Whether ``value`` claims to be the fake's (a real service's cannot be checked here)."""
    return isinstance(value, str) and value.startswith(PREFIX)


def unseal(value: object) -> dict[str, Any] | None:
    """The payload of a value the fake minted and nobody altered, else None."""
    if not minted_here(value):
        return None
    body, _, tag = str(value)[len(PREFIX):].rpartition(".")
    try:
        data = base64.urlsafe_b64decode(body.encode("ascii"))
    except (ValueError, UnicodeEncodeError):
        return None
    if not hmac.compare_digest(tag, _tag(data)):
        return None
    try:
        payload = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    return payload if isinstance(payload, dict) else None
