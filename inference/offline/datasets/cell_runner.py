"""Runs the cells of tool-loop training examples for real, so every tool message a model is
trained on is the output that code really gives.

Each trajectory's cells run in order in one namespace (a session keeps its variables, as the
REPL does), the value of a cell's last expression is its result (as a Jupyter kernel shows it),
and an exception becomes the error's `ename`/`evalue`. All trajectories of a build run in one
child process, with `macaron_tools` importable from the saved tools' sources, under a timeout.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TIMEOUT_S = 120

# The child: reads [[cell, ...], ...] as JSON on stdin, writes [[outcome, ...], ...].
_CHILD = r"""
import ast, contextlib, io, json, sys

def run(cell, namespace):
    out, err = io.StringIO(), io.StringIO()
    result, error = None, None
    try:
        tree = ast.parse(cell)
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            exec(compile(tree, "<cell>", "exec"), namespace)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
                result = None if value is None else repr(value)
    except Exception as exc:
        error = {"ename": type(exc).__name__, "evalue": str(exc)}
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "result": result, "error": error}

def trajectory(cells):
    namespace = {"__name__": "__main__"}
    return [run(cell, namespace) for cell in cells]

sys.path.insert(0, sys.argv[1])
json.dump([trajectory(cells) for cells in json.load(sys.stdin)], sys.stdout)
"""


@dataclass(frozen=True)
class Outcome:
    stdout: str
    stderr: str
    result: str | None
    error: dict[str, str] | None

    def as_kwargs(self) -> dict[str, Any]:
        return {
            "stdout": self.stdout,
            "stderr": self.stderr,
            "result": self.result,
            "error": self.error,
        }


def run_trajectories(
    trajectories: list[list[str]], saved_tools: dict[str, str] | None = None
) -> list[list[Outcome]]:
    """The outcome of every cell of every trajectory. `saved_tools` maps a tool's name to its
    source, importable as `from macaron_tools import <name>`."""
    with tempfile.TemporaryDirectory(prefix="macaron-cells-") as home:
        module = "\n\n".join((saved_tools or {}).values())
        (Path(home) / "macaron_tools.py").write_text(module + "\n")
        done = subprocess.run(
            [sys.executable, "-I", "-c", _CHILD, home],
            input=json.dumps(trajectories),
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            cwd=home,
            env={"PYTHONHASHSEED": "0", "TZ": "UTC"},
            check=False,
        )
    if done.returncode != 0:
        raise RuntimeError(f"the cell runner failed: {done.stderr[-2000:]}")
    return [[Outcome(**outcome) for outcome in cells] for cells in json.loads(done.stdout)]
