"""How the staged generations' stages ended other than as the model closed them, from the
worker's log (inference/serving/staged_decode.py logs one line each): cut at the token limit
and closed by the grammar (the spec counts as cut off), or stopped at a verbatim copy of an
array's item and closed there (the spec counts as whole). A skeptic reads the second next to
the valid share: it is how many whole specs the repeat watch made so. So are the heads ended
after a node's second child with nothing new to show (a loop with small changes), by the
component whose children they were, and the heads ended in a loop of copies. It also counts
the head's copied children hidden while the model wrote on (no stage ended there), by the
component whose children they were.

A bench run writes `stage_endings.json` beside its summary.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

CLOSED = re.compile(r"staged decode: the (?P<stage>\w+), cut at the token limit, closed with")
DROPPED = re.compile(r"staged decode: the (?P<stage>\w+) wrote an item again, verbatim;")
HIDDEN = re.compile(r"staged decode: the head wrote a (?P<parent>\w+)'s child again, verbatim;")
STALE = re.compile(r"staged decode: the head wrote a (?P<parent>\w+)'s second child with nothing")
LOOP = re.compile(r"staged decode: the head wrote a (?P<parent>\w+)'s child again, in a loop")
# The worker's warm-up decodes one token of a spec before any request, and its stages are
# cut at that limit too: the lines before its end are not the bench's.
WARM_UP = re.compile(r'"phase": "warm-up"')


def stage_endings(log_text: str) -> dict[str, Any]:
    """Per stage (head, targets, tail): how many were closed at the token limit, and how many
    ended at a dropped copy; the heads ended after a stale child or in a loop of copies, and the
    copies hidden. Only the lines after the last warm-up count."""
    warm_ups = list(WARM_UP.finditer(log_text))
    log_text = log_text[warm_ups[-1].end() :] if warm_ups else log_text
    closed = Counter(m["stage"] for m in CLOSED.finditer(log_text))
    dropped = Counter(m["stage"] for m in DROPPED.finditer(log_text))
    hidden = Counter(m["parent"] for m in HIDDEN.finditer(log_text))
    stale = Counter(m["parent"] for m in STALE.finditer(log_text))
    looping = Counter(m["parent"] for m in LOOP.finditer(log_text))
    return {
        "closed_at_the_token_limit": dict(sorted(closed.items())),
        "ended_at_a_dropped_copy": dict(sorted(dropped.items())),
        "head_ended_after_a_stale_child": dict(sorted(stale.items())),
        "head_ended_in_a_loop_of_copies": dict(sorted(looping.items())),
        "head_copies_hidden": dict(sorted(hidden.items())),
    }


def write_stage_endings(worker_log: Path, out: Path) -> None:
    text = worker_log.read_text(errors="replace") if worker_log.exists() else ""
    out.write_text(json.dumps({"source": worker_log.name, **stage_endings(text)}, indent=1) + "\n")
