"""The editors' settings contributions agree with the sidecar's own settings model."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

from sidecar.core.settings import Settings

REPO = Path(__file__).resolve().parents[3]
EXTENSION_ONLY = {"pythonPath", "serverCommand", "gaugeClickAction", "resumeLastSession", "includeActiveEditor"}


def sidecar_defaults(obj: Any = None, prefix: str = "") -> dict[str, Any]:
    obj = obj if obj is not None else Settings()
    out: dict[str, Any] = {}
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if dataclasses.is_dataclass(value):
            out.update(sidecar_defaults(value, prefix + f.name + "."))
        else:
            out[prefix + f.name] = list(value) if isinstance(value, tuple) else value
    return out


def test_vscode_contributes_every_setting_with_the_sidecars_default() -> None:
    pkg = json.loads((REPO / "vscode-extension" / "package.json").read_text())
    conf = pkg["contributes"]["configuration"]
    props = conf["properties"] if isinstance(conf, dict) else conf[0]["properties"]
    contributed = {k.removeprefix("contextSidecar."): v for k, v in props.items()}
    defaults = sidecar_defaults()
    assert set(contributed) - EXTENSION_ONLY == set(defaults)
    for key, value in defaults.items():
        given = contributed[key].get("default")
        # An unset string the editor shows as "" is the sidecar's null; apiKeyEnv shows the
        # variable the sidecar falls back to for the default provider.
        if key == "apiKeyEnv":
            assert given == "ANTHROPIC_API_KEY"
        elif value is None:
            assert given in (None, ""), key
        else:
            assert given == value, key
