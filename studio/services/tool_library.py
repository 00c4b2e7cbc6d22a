"""The modules every REPL kernel is given, read when it starts (studio/repl/sandbox.py binds
them read-only): `macaron_tools`, the active global tools' sources as one file.

A kernel keeps the snapshot it started with: a tool promoted or demoted later reaches a session
when it is created, reset, or restarted after a crash, not while it runs.
"""

from __future__ import annotations

from collections.abc import Iterable

from studio.models import GlobalTool

MODULE = "macaron_tools"
# What the module binds besides the tools (the `__future__` import binds `annotations`): a tool
# may not take these names.
OWN_NAMES = frozenset({"annotations"})

HEADER = '''"""Macaron's global tools: functions promoted from REPL sessions, each with the tests it
passed in a fresh sandbox (GET /v1/tools lists them). This is the snapshot this session's
kernel started with; a reset session gets the current ones."""

# Annotations stay unevaluated, so importing the module runs no tool's code.
from __future__ import annotations

'''


def repl_modules() -> dict[str, str]:
    """The files a new kernel's library folder holds."""
    return {f"{MODULE}.py": macaron_tools_text(GlobalTool.objects.filter(active=True))}


def macaron_tools_text(tools: Iterable[GlobalTool]) -> str:
    """The module: each tool's `def` as promoted. Importing it only defines functions: a source
    is one undecorated `def` whose defaults are literals (services/global_tools.py checks)."""
    ordered = sorted(tools, key=lambda tool: tool.name)
    names = ", ".join(repr(tool.name) for tool in ordered)
    parts = [HEADER + f"__all__ = [{names}]\n"]
    for tool in ordered:
        parts.append(f"\n\n# {tool.name}, version {tool.version}\n{tool.source.rstrip()}\n")
    return "".join(parts)
