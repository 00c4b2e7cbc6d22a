"""The rating's render helpers: its stars, which one is picked, and which takes the focus."""

from __future__ import annotations

from ui4a.fields import is_number
from ui4a.render import NodeView

MOST_STARS = 10
# A five-pointed star, drawn in the 24x24 box every ui4a icon uses.
STAR_PATH = "M12 3l2.8 5.7 6.2.9-4.5 4.4 1.1 6.2L12 17.3 6.4 20.2l1.1-6.2L3 9.6l6.2-.9z"


class View(NodeView):
    @property
    def star_path(self) -> str:
        return STAR_PATH

    @property
    def stars(self) -> list[dict[str, object]]:
        """One entry per star: its number, whether it is the picked one, whether it is lit
        (at or below the pick) and whether it is the one Tab reaches (the pick, else the first);
        behaviour.js keeps the same three as state changes."""
        count = int(max(1, min(MOST_STARS, self.val("max") or 5)))
        bound = self._read(self.bind) if self.bind else None
        picked = round(bound) if isinstance(bound, (int, float)) and is_number(bound) else 0
        focus = picked if 1 <= picked <= count else 1
        return [
            {"value": n, "checked": n == picked, "lit": n <= picked, "focus": n == focus}
            for n in range(1, count + 1)
        ]
