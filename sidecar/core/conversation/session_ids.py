"""Session ids: one name for a session on the wire, in storage and in transcripts.

A session id becomes a file name, so it must be a safe one: letters, digits, ``_``, ``-`` and
``.``, no ``..``, at most 128 characters.
"""

from __future__ import annotations

import re

_SESSION_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$")


def is_valid_session_id(session_id: str) -> bool:
    return bool(_SESSION_ID.match(session_id)) and ".." not in session_id
