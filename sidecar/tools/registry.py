"""The tool set a session offers the model, and its provider-facing specs."""

from __future__ import annotations

from sidecar.core.ports import Tool
from sidecar.core.settings import Settings
from sidecar.tools.background_shells import BashOutputTool, KillBashTool
from sidecar.tools.memory import MemoryTool
from sidecar.tools.plan import ExitPlanModeTool
from sidecar.tools.read import ReadTool
from sidecar.tools.search import GlobTool, GrepTool, LSTool
from sidecar.tools.shell import BashTool
from sidecar.tools.skill import SkillTool
from sidecar.tools.task import TaskTool
from sidecar.tools.todo_write import TodoWriteTool
from sidecar.tools.write_edit import EditTool, MultiEditTool, WriteTool


def default_tools(settings: Settings) -> list[Tool]:
    tools: list[Tool] = [
        ReadTool(), WriteTool(), EditTool(), MultiEditTool(), GlobTool(), GrepTool(), LSTool(),
    ]
    if settings.tools.shell:
        tools += [BashTool(), BashOutputTool(), KillBashTool()]
    tools.append(ExitPlanModeTool())
    tools.append(SkillTool())
    tools.append(TodoWriteTool())
    tools.append(TaskTool())
    if settings.tools.memory:
        tools.append(MemoryTool())
    return tools
