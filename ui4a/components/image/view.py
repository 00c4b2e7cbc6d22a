"""The image's render helpers: a source only when a view may load it (ui4a/images.py); any
other image is drawn as a local placeholder, so the view makes no request."""

from __future__ import annotations

from ui4a.fields import SAFE_URL
from ui4a.images import image_allowed
from ui4a.render import NodeView

# A framed landscape, drawn inline: the placeholder must make no request either.
PLACEHOLDER_PATH = (
    "M5 4h14a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2z"
    "M3 16l5-5 4 4 3-3 6 6M15.5 8.5h.01"
)


class View(NodeView):
    placeholder_path = PLACEHOLDER_PATH

    @property
    def safe_src(self) -> str:
        src = self.val("src")
        ok = isinstance(src, str) and SAFE_URL.fullmatch(src) and image_allowed(src)
        return src if ok else ""
