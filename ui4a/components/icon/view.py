"""The icon's render helpers: the SVG path of its name."""

from __future__ import annotations

from ui4a import icons
from ui4a.render import NodeView


class View(NodeView):
    @property
    def icon_path(self) -> str:
        return icons.PATHS.get(str(self.val("name")), "")
