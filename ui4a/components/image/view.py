"""The image's render helpers: a source only when a view may load it (ui4a/images.py); any
other image is drawn as a local placeholder, so the view makes no request."""

from __future__ import annotations

from ui4a.fields import SAFE_URL
from ui4a.images import image_allowed
from ui4a.render import NodeView


class View(NodeView):
    @property
    def safe_src(self) -> str:
        src = self.val("src")
        ok = isinstance(src, str) and SAFE_URL.fullmatch(src) and image_allowed(src)
        return src if ok else ""
