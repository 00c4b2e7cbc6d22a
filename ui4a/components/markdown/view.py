"""The markdown component's render helpers: its sanitized HTML."""

from __future__ import annotations

from markupsafe import Markup

from ui4a import markdown
from ui4a.render import NodeView


class View(NodeView):
    @property
    def markdown(self) -> Markup:
        return Markup(markdown.to_html(self.val("md")))
