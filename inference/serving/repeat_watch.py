"""Where a stage's JSON starts to loop: an object or array item written again, verbatim, right
after itself in the same array (a wizard's step, a table's row, a page's section). A model that
writes one such copy often goes on writing them until the token limit. No training spec holds
one (tests/inference/test_datasets.py): a copy is always the model's slip, never the request.

Small items (a divider, a spacer, an empty row) may repeat on purpose and are left alone. The
watch reads the text as it streams, once, in time linear in its length (each finished item is
compared once, with the one before it only). Each array knows the property it is the value of
and the component of the node that holds it, so that a stage can tell a node's children from a
dataset's rows (staged_decode.py drops a tail's copied row, and hides a head's copied child).

A loop need not be verbatim. A head that loops writes a wizard's steps or a card again and
again with a number changed here and there, and nothing new to show: every label, text and
title in it is one the spec has shown already. Such an item is stale; a second stale item among
a node's interchangeable children is reported too (`Copy.stale`), right after it ends, and the
head ends there (staged_decode.py). The watch keeps each display string's first place as the
strings close, so an item's check reads only its own strings.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from inference.serving.step_rows import OutputReader, Strings
from ui4a.registry import get as get_component

# Items shorter than this may repeat: `{"t":"divider"}` twice is a choice, not a loop.
SMALLEST_LOOP = 24
# How many of an array's earlier items a copy in progress is looked for among.
EARLIER = 8
# A stale item shows at least this many strings, none of them new: a short one (a button of the
# same label in each row) may repeat on purpose.
STALE_STRINGS = 3
# The stale item among an array's that is reported: the second (one may be a recap).
STALE_LOOP = 2
# A string the view shows: the value of one of these keys.
_SHOWN = re.compile(r'"(?:label|text|title|md|submit)"\s*:\s*$')
_SHOWN_REACH = 16


# An array's property name, read back from the text before its bracket: `"c":[`.
_KEY = re.compile(r'"(\w+)"\s*:\s*$')
# The component of a node whose text begins `{"t":"card"` (the UI4A grammar writes "t" first).
_COMPONENT = re.compile(r'\{\s*"t"\s*:\s*"(\w+)"')
# How far back a property name is looked for: its quotes, its colon and spaces.
_KEY_REACH = 48


def interchangeable_children(key: str, parent: str) -> bool:
    """Whether an array is a node's children ("c") that pair with no labels: two alike there
    show one thing twice, where a tab's panels or an accordion's sections are each its own."""
    component = get_component(parent)
    return key == "c" and component is not None and not component.children_labelled_by


@dataclass(frozen=True)
class Copy:
    """An item written again, verbatim, right after itself."""

    start: int  # the comma before the copy: where to cut the text
    end: int  # the comma or bracket right after the copy
    key: str  # the property whose value the array is ("c": a node's children; "" at the top)
    parent: str  # the component ("t") of the node holding that property, "" if not a node
    # Not a copy but the second stale item of a node's children: `start` is the comma after
    # it (where to end the text), `end` that too.
    stale: bool = False
    # Set by the head that hides copies (staged_decode.py), never by the watch: a copy in a
    # loop of copies, where the head ends. Greedy decoding that writes copy after copy may
    # write them until the token limit.
    loops: bool = False


@dataclass
class _Object:
    start: int  # where its brace is


@dataclass
class _Array:
    start: int  # where the item now being written begins
    key: str = ""
    parent: str = ""
    previous: tuple[int, int] | None = None  # the span of the item before it, if a structure
    # The spans of the last EARLIER structured items, newest first (`copying` reads them).
    earlier: list[tuple[int, int]] = field(default_factory=list)
    stale: int = 0  # how many of its items were stale
    first: int = 0  # where its first item begins (right after its bracket)


@dataclass(frozen=True)
class OpenArray:
    """The innermost array a text leaves open, right after one of its items."""

    key: str
    parent: str
    first: int  # where its first item begins
    last: int  # where its last item begins


@dataclass
class RepeatWatch:
    """Feed a stage's text as it streams; `feed` returns the verbatim copies that end in what it
    was fed, first first (none: an empty list)."""

    text: str = ""
    _stack: list[_Array | _Object] = field(default_factory=list)
    _in_string: bool = False
    _escaped: bool = False
    _string_start: int = 0
    # The display strings closed so far, in order: where each began, and its text.
    _shown_at: list[int] = field(default_factory=list)
    _shown: list[str] = field(default_factory=list)
    # Where each display string was first shown.
    _first_shown: dict[str, int] = field(default_factory=dict)

    def rewind(self, position: int) -> None:
        """Forget the text from `position` on (a stage's closers cut for the next stage, or a
        dropped copy), as if it had never been fed."""
        kept = self.text[:position]
        self.text, self._stack, self._in_string, self._escaped = "", [], False, False
        self._shown_at, self._shown, self._first_shown = [], [], {}
        self.feed(kept)

    def fork(self) -> RepeatWatch:
        """A watch that reads on from here without changing this one (a step's drafts)."""
        stack = [
            replace(a, earlier=list(a.earlier)) if isinstance(a, _Array) else a for a in self._stack
        ]
        return RepeatWatch(
            self.text,
            stack,
            self._in_string,
            self._escaped,
            self._string_start,
            list(self._shown_at),
            list(self._shown),
            dict(self._first_shown),
        )

    def held_from(self, watched: Callable[[str, str], bool] | None = None) -> int:
        """Where to stop streaming: the comma before the item being written, in any array (or in
        one whose key and parent are `watched`), while it is the start of a copy of the item
        before it (it may yet be cut away); else the end. From the innermost array out, each
        compares its item up to where an inner one holds: a copy within a copy may be cut away
        first, and then the outer item is a copy too."""
        held = len(self.text)
        for array in reversed(self._stack):
            if not isinstance(array, _Array) or array.previous is None:
                continue
            if watched is None or watched(array.key, array.parent):
                before = self.text[array.previous[0] : array.previous[1]]
                if before.startswith(self.text[array.start : held]):
                    held = array.start - 1
        return held

    def copying(self, watched: Callable[[str, str], bool]) -> tuple[list[str], int]:
        """Where the innermost `watched` array's item being written is, so far, the start of a
        copy of some of its EARLIER items: their texts and how much of them the copy has
        written ([] where it is none's)."""
        for array in reversed(self._stack):
            if not isinstance(array, _Array) or not array.earlier:
                continue
            if watched(array.key, array.parent):
                written = self.text[array.start :]
                spans = array.earlier if written else []
                copied = [self.text[a:b] for a, b in spans if self.text.startswith(written, a, b)]
                if copied:
                    return copied, len(written)
        return [], 0

    def innermost_array(self) -> OpenArray | None:
        """The innermost open array, where the text ends between its items (or right after its
        bracket); None where it ends in an object or a string."""
        top = self._stack[-1] if self._stack else None
        if self._in_string or not isinstance(top, _Array):
            return None
        return OpenArray(top.key, top.parent, top.first, top.start)

    def feed(self, more: str) -> list[Copy]:
        begin = len(self.text)
        self.text += more
        copies = []  # all of `more` is read, so the watch goes on where a copy is kept
        for position in range(begin, len(self.text)):
            copy = self._step(position)
            if copy is not None:
                copies.append(copy)
        return copies

    def _step(self, position: int) -> Copy | None:
        char = self.text[position]
        if self._in_string:
            if self._escaped:
                self._escaped = False
            elif char == "\\":
                self._escaped = True
            elif char == '"':
                self._in_string = False
                self._string_ended(position)
            return None
        if char == '"':
            self._in_string = True
            self._string_start = position
        elif char == "{":
            self._stack.append(_Object(position))
        elif char == "[":
            self._stack.append(self._array(position))
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

    def _array(self, bracket: int) -> _Array:
        key = _KEY.search(self.text, max(0, bracket - _KEY_REACH), bracket)
        holder = self._stack[-1] if self._stack else None
        if key is None or not isinstance(holder, _Object):
            return _Array(bracket + 1, first=bracket + 1)
        node = _COMPONENT.match(self.text, holder.start)
        return _Array(bracket + 1, key.group(1), node.group(1) if node else "", first=bracket + 1)

    def _string_ended(self, end: int) -> None:
        start = self._string_start
        if _SHOWN.search(self.text, max(0, start - _SHOWN_REACH), start):
            shown = self.text[start + 1 : end]
            self._shown_at.append(start)
            self._shown.append(shown)
            self._first_shown.setdefault(shown, start)

    def _stale(self, start: int) -> bool:
        """Whether the item from `start` on shows STALE_STRINGS strings or more, all of them
        shown before it."""
        shown = self._shown[bisect_left(self._shown_at, start) :]
        return len(shown) >= STALE_STRINGS and all(self._first_shown[s] < start for s in shown)

    def _item_ended(self, array: _Array, end: int) -> Copy | None:
        """The item from `array.start` to `end` is written: the cut before it, if it copies the
        item before it; else it becomes the one the next item is compared with. A second stale
        child of a node, ended by a comma, is reported as such."""
        start = array.start
        item = self.text[start:end]
        structured = item[:1] in ("{", "[") and len(item) >= SMALLEST_LOOP
        if structured and array.previous is not None:
            before = self.text[array.previous[0] : array.previous[1]]
            if before == item:
                return Copy(start - 1, end, array.key, array.parent)
        array.previous = (start, end) if structured else None
        if structured:
            array.earlier = [(start, end), *array.earlier[: EARLIER - 1]]
            if interchangeable_children(array.key, array.parent) and self._stale(start):
                array.stale += 1
                if array.stale >= STALE_LOOP and self.text[end] == ",":
                    return Copy(end, end, array.key, array.parent, stale=True)
        return None


@dataclass
class WatchedOutput:
    """One request's output, fed to a watch as its tokens come."""

    watch: RepeatWatch = field(default_factory=RepeatWatch)
    reader: OutputReader = field(default_factory=OutputReader)

    def update(self, outputs: list[int], strings: Strings) -> None:
        unread, restarted = self.reader.unread(outputs, strings)
        if restarted:
            self.watch = RepeatWatch()
        self.watch.feed(unread)
