"""The alert's render helpers: the icon of its tone."""

from __future__ import annotations

from ui4a import icons
from ui4a.render import NodeView

TONE_ICONS = {"info": "info", "success": "success", "warning": "alert", "danger": "alert"}


class View(NodeView):
    @property
    def tone_icon(self) -> str:
        return icons.PATHS[TONE_ICONS.get(str(self.val("tone")), "info")]
