"""The stat's render helpers: its delta as a mood, words and an arrow."""

from __future__ import annotations

from ui4a import icons
from ui4a.render import NodeView


class View(NodeView):
    @property
    def delta(self) -> dict[str, str] | None:
        return delta_of(str(self.val("delta")), str(self.val("good")))


def delta_of(text: str, good: str) -> dict[str, str] | None:
    if not text:
        return None
    down = text.startswith(("-", "\u2212"))
    up = text.startswith("+") or (not down and text[:1].isdigit())
    if not (up or down):
        return {"mood": "flat", "words": "", "arrow": "", "text": text}
    nice = up == (good == "up")
    return {
        "mood": "good" if nice else "bad",
        "words": "Up" if up else "Down",
        "arrow": icons.PATHS["up" if up else "down"],
        "text": text.lstrip("+-\u2212"),
    }
