"""The progress bar's render helpers: its value and percentage."""

from __future__ import annotations

from ui4a.fields import is_scalar
from ui4a.render import NodeView
from ui4a.state import format_value


class View(NodeView):
    @property
    def progress(self) -> dict[str, str]:
        bound = self.state.get(self.bind) if self.bind else None
        value = bound if is_scalar(bound) and not isinstance(bound, (str, bool)) else None
        if value is None:
            value = self.val("value") or 0
        top = self.val("max") or 100
        ratio = float(value) / float(top) * 100 if top > 0 else 0.0
        # 1e308 of 0.5 is inf, which round() refuses with OverflowError: clamp first.
        percent = round(max(0.0, min(100.0, ratio)))
        return {"value": format_value(value), "percent": str(percent)}
