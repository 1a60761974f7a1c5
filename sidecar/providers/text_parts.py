"""The text of a streamed block, kept as its pieces until it is read.

``block["text"] += piece`` copies the whole text at every delta (the string is held by the
block, so Python cannot grow it in place): an answer of a megabyte in 12-byte deltas took
44 seconds of CPU to assemble. Pieces are appended here instead, and joined once.
"""

from __future__ import annotations

from sidecar.core.conversation.messages import Block


class TextParts:
    """Growing text fields of an answer's blocks, by (block position, field name)."""

    def __init__(self) -> None:
        self._parts: dict[tuple[int, str], list[str]] = {}

    def add(self, block: Block, position: int, name: str, piece: str) -> None:
        """Append ``piece`` to ``block[name]`` (the block at ``position``)."""
        parts = self._parts.get((position, name))
        if parts is None:
            parts = self._parts[(position, name)] = [str(block.get(name) or "")]
        parts.append(piece)

    def read(self, block: Block, position: int, name: str) -> str:
        """``block[name]`` as it stands, written back into the block."""
        parts = self._parts.get((position, name))
        if parts is not None and len(parts) > 1:
            parts[:] = ["".join(parts)]
        if parts is not None:
            block[name] = parts[0]
        return str(block.get(name) or "")

    def set(self, block: Block, position: int, name: str, value: str) -> None:
        """``block[name] = value``, dropping the pieces so far."""
        self._parts.pop((position, name), None)
        block[name] = value

    def settle(self, blocks: dict[int, Block] | list[Block]) -> None:
        """Write every growing field back into its block."""
        for position, name in list(self._parts):
            self.read(blocks[position], position, name)
