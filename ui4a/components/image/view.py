"""The image's render helpers: a source only when it is a safe URL."""

from __future__ import annotations

from ui4a.fields import SAFE_URL
from ui4a.render import NodeView


class View(NodeView):
    @property
    def safe_src(self) -> str:
        src = self.val("src")
        return src if isinstance(src, str) and SAFE_URL.fullmatch(src) else ""
