"""The chart's render helpers: its config, label and the table screen readers get."""

from __future__ import annotations

from typing import Any

from ui4a.render import NodeView, compact, humanize
from ui4a.state import format_cell


class View(NodeView):
    @property
    def chart(self) -> dict[str, Any]:
        rows, pending = self.rows()
        kind, ys, x = self.val("kind"), self.val("y"), self.val("x")
        config = {"kind": kind, "data": self.val("data"), "x": x, "y": ys}
        config["filter"] = self.val("filter")
        label = f"{self.val('title')}: {kind} chart of {', '.join(ys)} by {x}"
        # The data behind the picture, as a table for screen readers (runtime.js keeps it
        # current); a pie shows its first series only, and so does its table.
        keys = [x, *(ys[:1] if kind == "pie" else ys)]
        return {
            "config": compact(config),
            "label": label,
            "pending": pending,
            "head": [humanize(key) for key in keys],
            "rows": [[format_cell(row.get(key)) for key in keys] for row in rows],
        }
