"""The chart's render helpers: its config, label and the table screen readers get."""

from __future__ import annotations

from typing import Any

from ui4a.fields import is_number
from ui4a.render import NodeView, Row, compact, humanize
from ui4a.state import format_cell, format_value


class View(NodeView):
    @property
    def chart(self) -> dict[str, Any]:
        rows, pending = self.rows()
        kind, ys, x = self.val("kind"), self.val("y"), self.val("x")
        rows = combine(rows, x, ys)
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


def combine(rows: list[Row], x: str, ys: list[str]) -> list[Row]:
    """One point per x label, its series summed: a dataset grouped by month and region
    charts by month, and a region filter narrows the sums (runtime.js does the same)."""
    out: dict[str, dict[str, Any]] = {}
    for row in rows:
        label = format_value(row.get(x))
        point = out.get(label)
        if point is None:
            out[label] = {x: row.get(x), **{y: row.get(y) for y in ys}}
            continue
        for y in ys:
            value: Any = row.get(y)
            total: Any = point.get(y)
            if is_number(value):
                point[y] = total + value if is_number(total) else value
    return list(out.values())
