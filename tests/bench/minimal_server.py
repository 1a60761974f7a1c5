"""The smallest pygls server: the floor bench_startup compares the sidecar's start with."""

from __future__ import annotations

from pygls.lsp.server import LanguageServer


def main() -> None:
    LanguageServer("minimal-bench-server", "0").start_io()


if __name__ == "__main__":
    main()
