"""The table's render helpers: its first page, columns and the config runtime.js re-renders by."""

from __future__ import annotations

from typing import Any

from ui4a.catalog import MAX_COLUMNS, MAX_ROWS
from ui4a.render import NodeView, Row, compact, humanize
from ui4a.state import format_cell


class View(NodeView):
    @property
    def table(self) -> dict[str, Any]:
        rows, pending = self.rows()
        all_rows = self.r.data.get(self.val("data")) or []
        cols = columns(self.node.get("cols"), all_rows)
        size = int(max(1, min(MAX_ROWS, self.val("page") or 10)))
        shown = rows[:size]
        numeric = {
            key: any(isinstance(r.get(key), (int, float)) for r in all_rows)
            and all(isinstance(r.get(key), (int, float)) or r.get(key) is None for r in all_rows)
            for key, _ in cols
        }
        config = {
            "data": self.val("data"),
            "cols": [key for key, _ in cols],
            "num": [key for key, _ in cols if numeric[key]],
            "filter": self.val("filter"),
            "page": size,
        }
        return {
            "cols": [{"key": k, "label": label, "numeric": numeric[k]} for k, label in cols],
            "rows": [[format_cell(r.get(key)) for key, _ in cols] for r in shown],
            "info": page_info(0, size, len(rows)),
            "first": True,
            "last": len(rows) <= size,
            "pending": pending,
            "config": compact(config),
        }


def columns(spec_cols: object, rows: list[Row]) -> list[tuple[str, str]]:
    """(key, header) per column: from "key" or "key:Header" entries, else the first row's keys."""
    out: list[tuple[str, str]] = []
    if isinstance(spec_cols, list) and spec_cols:
        for col in spec_cols[:MAX_COLUMNS]:
            if isinstance(col, str) and col:
                key, _, label = col.partition(":")
                out.append((key, label or humanize(key)))
    elif rows:
        out = [(key, humanize(key)) for key in list(rows[0])[:MAX_COLUMNS]]
    return out


def page_info(start: int, size: int, total: int) -> str:
    """The pager's text; runtime.js builds the same."""
    if total == 0:
        return "No rows"
    return f"{start + 1}\u2013{min(start + size, total)} of {total}"
