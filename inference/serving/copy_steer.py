"""A head steered off writing a node's child again (`MACARON_COPY_STEER`).

The ui expert often writes a section twice, verbatim: "Open tickets" three times where the
request asked for open tickets, median first response time and customer satisfaction (32 of
150 dev specs held such a copy). The head hides a copy once written (staged_decode.py), which
leaves its slot empty. This steers the model off it while it is written: where the child being
written is, so far, the start of a copy of an earlier sibling (`RepeatWatch.copying`), and the
copy's next text is one of the child's display strings (a label, a text, a title), the token
that would write that text is pushed down by the steer (a logit), until the model's best token
is another. The copy bias then tips that choice towards the request's words (copy_bias.py).
Structure is never steered: two cards alike up to their titles are a choice. A label that only
shares its first word with an earlier one ("Class size" after "Class name") is pushed off that
word too: the steer cannot tell it from a copy (bench/RESULTS.md, 2026-12-06, 01:05).

It runs in the model runner's sampling (logit_rules.py), on each row of a request's
logits, drafts included (row j after drafts 0..j-1). It reads the spec as the output's tokens
spell it, one `RepeatWatch` a request, and asks only about the row's best token, a few times
at most: a step's cost stays bounded whatever the spec.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

from inference.serving.repeat_watch import WatchedOutput, interchangeable_children
from inference.serving.step_rows import Row, Strings, after_drafts, asked

EXTRA_ARG = "macaron_copy_steer"
# A display string's value in a child's text: what a copy is steered off.
DISPLAY = re.compile(r'"(?:label|text|title)"\s*:\s*"((?:[^"\\]|\\.)*)"')
# The most times a row's best token is pushed down in one step.
MAX_TRIES = 4


@functools.lru_cache(maxsize=64)
def display_spans(item: str) -> tuple[tuple[int, int], ...]:
    """Where `item`'s display strings' values are (start, end)."""
    return tuple(m.span(1) for m in DISPLAY.finditer(item))


def steered_text(item: str, written: int) -> tuple[str, int] | None:
    """What a copy of `item` would write next after its first `written` characters, and how
    many of those come before its next display text (0: the copy is in one); None if it writes
    no more display text. A token is steered off when it writes into that display text: one
    that also spells the quote before it (`"Open`) is too."""
    lead = min(
        (max(0, start - written) for start, end in display_spans(item) if end > written),
        default=None,
    )
    return None if lead is None else (item[written:], lead)


def steer_rows(
    logits: Any,
    first: int,
    count: int,
    drafts: list[int],
    state: WatchedOutput,
    by: float,
    strings: Strings,
) -> int:
    """Push down, in each of the request's rows (row j after drafts 0..j-1), the best token
    while it writes the next display text of a child the spec is copying; how many times a
    token was pushed."""
    watch = state.watch.fork() if count > 1 else state.watch
    pushed = 0
    for row, draft in after_drafts(count, drafts, strings):
        watch.feed(draft)
        items, written = watch.copying(interchangeable_children)
        ahead = [t for t in (steered_text(i, written) for i in items) if t is not None]
        for _ in range(MAX_TRIES if ahead else 0):
            best = int(logits[first + row].argmax())
            text = strings(best)
            if not any(len(text) > lead and rest.startswith(text) for rest, lead in ahead):
                break
            logits[first + row, best] -= by
            pushed += 1
    return pushed


def request_args(by: float) -> dict[str, Any]:
    """`SamplingParams.extra_args` that steer a head off its copies by `by` (0: none)."""
    return {EXTRA_ARG: {"by": by}} if by > 0 else {}


def steer_batch(
    logits: Any,
    rows: Iterable[Row],
    kept: dict[str, Any],
    strings: Callable[[], Strings],
) -> None:
    """Steer each request in the batch that asks for it (its `extra_args`); `kept` holds their
    states while they are in the batch."""
    for req_id, state, first, count, drafts in rows:
        wanted = asked(state, EXTRA_ARG)
        if not wanted:
            continue
        read = strings()
        steer = kept.setdefault(req_id, WatchedOutput())
        steer.update(list(state.output_token_ids), read)
        steer_rows(logits, first, count, drafts, steer, float(wanted["by"]), read)
