"""Where a stage's JSON starts to loop: an object or array item written again, verbatim, right
after itself in the same array (a wizard's step, a table's row, a page's section). A model that
writes one such copy nearly always goes on writing them until the token limit, and the spec is
then cut off; so a staged decode drops the copy and closes the stage there instead.

Small items (a divider, a spacer, an empty row) may repeat on purpose and are left alone. The
watch reads the text as it streams, once, in time linear in its length (each finished item is
compared once, with the one before it only).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Items shorter than this may repeat: `{"t":"divider"}` twice is a choice, not a loop.
SMALLEST_LOOP = 24


@dataclass
class _Array:
    start: int  # where the item now being written begins
    previous: tuple[int, int] | None = None  # the span of the item before it, if a structure


@dataclass
class RepeatWatch:
    """Feed a stage's text as it streams; `feed` returns where to cut it (the comma before the
    first verbatim copy in what it was fed), and None if it holds none."""

    text: str = ""
    _stack: list[_Array | None] = field(default_factory=list)  # None: an object
    _in_string: bool = False
    _escaped: bool = False

    def rewind(self, position: int) -> None:
        """Forget the text from `position` on (a stage's closers cut for the next stage, or a
        dropped copy), as if it had never been fed."""
        kept = self.text[:position]
        self.text, self._stack, self._in_string, self._escaped = "", [], False, False
        self.feed(kept)

    def held_from(self) -> int:
        """Where to stop streaming: the comma before the item being written, in any array, while
        it is the start of a copy of the item before it (it may yet be dropped); else the end."""
        for array in self._stack:
            if isinstance(array, _Array) and array.previous is not None:
                before = self.text[array.previous[0] : array.previous[1]]
                if before.startswith(self.text[array.start :]):
                    return array.start - 1
        return len(self.text)

    def feed(self, more: str) -> int | None:
        begin = len(self.text)
        self.text += more
        first = None  # all of `more` is read, so the watch goes on where a copy is kept
        for position in range(begin, len(self.text)):
            cut = self._step(position)
            first = cut if first is None else first
        return first

    def _step(self, position: int) -> int | None:
        char = self.text[position]
        if self._in_string:
            if self._escaped:
                self._escaped = False
            elif char == "\\":
                self._escaped = True
            elif char == '"':
                self._in_string = False
            return None
        if char == '"':
            self._in_string = True
        elif char in "[{":
            self._stack.append(_Array(position + 1) if char == "[" else None)
        elif char in "]}":
            if self._stack:
                closed = self._stack.pop()
                if isinstance(closed, _Array):
                    return self._item_ended(closed, position)
        elif char == "," and self._stack and isinstance(self._stack[-1], _Array):
            cut = self._item_ended(self._stack[-1], position)
            self._stack[-1].start = position + 1
            return cut
        return None

    def _item_ended(self, array: _Array, end: int) -> int | None:
        """The item from `array.start` to `end` is written: the cut before it, if it copies the
        item before it; else it becomes the one the next item is compared with."""
        start = array.start
        item = self.text[start:end]
        structured = item[:1] in ("{", "[") and len(item) >= SMALLEST_LOOP
        if structured and array.previous is not None:
            before = self.text[array.previous[0] : array.previous[1]]
            if before == item:
                return start - 1  # the comma that began the copy
        array.previous = (start, end) if structured else None
        return None
