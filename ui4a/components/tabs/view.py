"""The tabs' render helpers: which tab is open."""

from __future__ import annotations

from ui4a.render import NodeView


class View(NodeView):
    @property
    def current_tab(self) -> str:
        labels: list[str] = self.val("tabs")
        current = self.state.get(self.bind)
        if isinstance(current, str) and current in labels:
            return current
        return labels[0] if labels else ""
