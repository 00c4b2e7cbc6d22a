"""A reply's text as it streams, without its tool calls: what a client is shown adds up to
`parse_reply(text).content`, the same text the non-streamed answer carries.

Text is passed on as it comes, except what may still turn out to be part of a call: a `<`
that may begin `<tool_call>`, a call's body until `</tool_call>` (at most one call's size),
and whitespace that `parse_reply` would strip at the ends.
"""

from __future__ import annotations

from inference.tool_calls import CLOSE, MAX_CALL_CHARS, MAX_CALLS, OPEN, parse_reply

# A block whose body grows past this without closing is not a call: `parse_reply` keeps it,
# up to its first CLOSE, as text.
_LONGEST_BLOCK = len(OPEN) + MAX_CALL_CHARS + len(CLOSE)


class CallFilter:
    def __init__(self) -> None:
        self._pending = ""  # received, not yet decided
        self._mode = "text"  # "block": `_pending` starts with OPEN; "literal": text to a CLOSE
        self._calls = 0
        self._started = False  # some text was shown: leading whitespace is over
        self._spaces = ""  # whitespace held back: shown only if text follows it

    def feed(self, piece: str) -> str:
        """The part of the text so far that is now known to be shown."""
        self._pending += piece
        out: list[str] = []
        while self._pending:
            if self._mode == "text":
                start = self._pending.find(OPEN)
                if start < 0:
                    keep = _partial(self._pending, OPEN)
                    out.append(self._take(len(self._pending) - keep))
                    break
                out.append(self._take(start))
                self._mode = "block"
                continue
            end = self._pending.find(CLOSE)
            if end < 0:
                if self._mode == "block" and len(self._pending) > _LONGEST_BLOCK:
                    self._mode = "literal"  # too long to be a call, whenever it closes
                if self._mode == "literal":
                    keep = _partial(self._pending, CLOSE)
                    out.append(self._take(len(self._pending) - keep))
                break
            block = self._take(end + len(CLOSE))
            if self._mode == "block" and self._calls < MAX_CALLS and parse_reply(block).calls:
                self._calls += 1
            else:
                out.append(block)
            self._mode = "text"
        return self._shown("".join(out))

    def end(self) -> str:
        """The rest, once the reply is complete (a call never closed is text)."""
        text = self._shown(self._take(len(self._pending)))
        self._spaces = ""  # trailing whitespace: stripped
        return text

    @property
    def holding(self) -> int:
        """Characters held back now: at most one call's size and its tags, plus whitespace."""
        return len(self._pending) + len(self._spaces)

    def _take(self, size: int) -> str:
        taken, self._pending = self._pending[:size], self._pending[size:]
        return taken

    def _shown(self, text: str) -> str:
        if not self._started:
            text = text.lstrip()
            if not text:
                return ""
            self._started = True
        text = self._spaces + text
        body = text.rstrip()
        self._spaces = text[len(body) :]
        return body


def _partial(text: str, tag: str) -> int:
    """How many characters at the end of `text` begin `tag` (and may complete it)."""
    for size in range(min(len(tag) - 1, len(text)), 0, -1):
        if tag.startswith(text[-size:]):
            return size
    return 0
