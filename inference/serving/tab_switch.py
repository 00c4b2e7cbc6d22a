"""A head's tab switch names a label of the tabs it switches (`macaron_tab_labels`).

The head decodes under one JSON schema, which cannot look back: a button may switch tabs the
head drew earlier to a label those tabs lack, and the spec is invalid ("Go to Adoption"
switching to "Ad Adoption" where the tabs were "Adopt to adopt" and "Adoption": round 3's
profile-05, bench/RESULTS.md, 2026-12-06, 19:05). So where a row's text ends in a `tab` action
whose `path` binds tabs drawn already, only the tokens that go on spelling `"value":` and one
of those tabs' labels, then its closing quote, are left; the grammar takes it on from there.
Tabs not drawn yet are the middle stage's to draw (ui4a/undrawn.py), with the labels the
actions name.

The head asks, through `extra_args`; the sampling hook (logit_rules.py) masks the tokens. A
request's text is read as its tokens come, and parsed only while a row is in such an action
(a few steps a spec); the tokens are found in a sorted index of the vocabulary, so a step's
cost is bounded by the labels' lengths, not the vocabulary's size.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any

from inference.serving.spelling import Held, hold_rows
from inference.serving.step_rows import Row, Strings
from ui4a.parse import parse_partial
from ui4a.validate import targets

EXTRA_ARG = "macaron_tab_labels"
# A tab action, up to its `path`, as the head's grammar spells it (no whitespace): what follows
# is its value.
SWITCH = re.compile(r'"do":"tab","path":"([A-Za-z_][A-Za-z0-9_]*)",([^{}\[\]]*)\Z')
# How much of a row's text is searched for the action: more than its longest spelling.
TAIL = 400


def request_args() -> dict[str, Any]:
    """`SamplingParams.extra_args` that hold a head's tab switches to its tabs' labels."""
    return {EXTRA_ARG: True}


def switch_values(text: str) -> tuple[str, list[str]] | None:
    """Where `text` ends in a tab action aimed at tabs it drew: what it wrote after the action's
    `path`, and each way it may go on (`"value":"<label>"`, one a label, spelled as JSON);
    None elsewhere."""
    found = SWITCH.search(text[-TAIL:])
    if found is None:
        return None
    written = found.group(2)
    if not '"value":"'.startswith(written[:9]):
        return None  # another key first: not this schema's spelling
    spec = parse_partial(text)
    labels = targets(spec).tabs.get(found.group(1)) if spec is not None else None
    if not labels:
        return None
    endings = [f'"value":{json.dumps(label, ensure_ascii=False)}' for label in labels]
    if not any(ending.startswith(written) for ending in endings):
        return None  # it wrote past where a label could start (a label drawn since, say)
    return written, endings


def hold_switches(
    logits: Any,
    batch: Iterable[Row],
    kept: dict[str, Any],
    read: Callable[[], Strings],
) -> int:
    """In each row of the requests that ask, leave only the tokens that switch to a drawn tabs'
    label, where the row is writing such a switch; how many rows (spelling.hold_rows)."""

    def held_for(text: str, best: Callable[[], str]) -> Held:
        return switch_values(text) if '"do":"tab"' in text[-TAIL:] else None

    return hold_rows(logits, batch, kept, read, EXTRA_ARG, held_for)
