"""The terminal says once, at start, what an untrusted folder does not get."""

from __future__ import annotations

from sidecar.terminal.chat import trust_line


def test_an_untrusted_folder_with_something_withheld_gets_one_line() -> None:
    line = trust_line({"workspaceTrust": {"trusted": False, "source": "none", "withheld": [
        "hooks in .claude/settings.json",
        "settings permissions.defaultMode, tools.allow from .context-sidecar/settings.json"]}})
    assert line == ("This folder is not trusted, so these are not applied: hooks in .claude/settings.json; "
                    "settings permissions.defaultMode, tools.allow from .context-sidecar/settings.json. "
                    "Type /trust to trust this folder.")
    assert "\n" not in line


def test_nothing_to_say_of_a_trusted_folder_or_one_that_ships_nothing() -> None:
    assert trust_line({"workspaceTrust": {"trusted": True, "source": "claude-code", "withheld": []}}) is None
    assert trust_line({"workspaceTrust": {"trusted": False, "source": "none", "withheld": []}}) is None
    assert trust_line({"gauge": {}}) is None  # an older sidecar
    assert trust_line(None) is None
