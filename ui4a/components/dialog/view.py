"""The dialog's render helpers: the action its close button runs."""

from __future__ import annotations

from ui4a.render import NodeView, compact


class View(NodeView):
    @property
    def close_action(self) -> str:
        return compact({"do": "close", "path": self.bind})
