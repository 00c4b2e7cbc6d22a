"""The list's render helpers: one item per record, and the template runtime.js clones."""

from __future__ import annotations

from typing import Any

from ui4a.render import NodeView, compact


class View(NodeView):
    @property
    def list(self) -> dict[str, Any]:
        rows, pending = self.rows()
        name = self.val("data")
        all_rows = self.r.data.get(name) or []
        index = {id(r): i for i, r in enumerate(all_rows)}
        items = [
            {"index": index[id(row)], "html": self.r.items(self, row, index[id(row)])}
            for row in rows
        ]
        config = {"data": name, "filter": self.val("filter")}
        return {
            "entries": items,
            "template": self.r.items(self, None, None),
            "pending": pending,
            "config": compact(config),
        }
