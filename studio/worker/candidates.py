"""More drafts of a studio ui turn, and the one kept, when the designer asks for the best of
several ("Best of 3": the turn's options say how many, `MACARON_UI_CANDIDATES`).

The designer watches the greedy draft grow, as always. Beside it, the engine writes
`count - 1` more drafts of the same request, sampled (temperature CANDIDATE_TEMPERATURE), in
the same batches. When the greedy draft ends, the drafts still running get a grace to end (the
studio says how many, and a Stop aborts them at once); then the kept draft is the one that
validates whole and shows most of the request's own words
(inference/serving/request_coverage.py), the greedy draft on a tie. A sampled draft kept
replaces the streamed text before the run stores its end, so the version the turn adds, and
the view the studio shows when it ends, are the kept draft's.

Only a first ui turn from the studio has candidates: a refinement edits the version it
quotes, and an API request streams its own tokens to its caller. On UI4A-Bench's dev prompts,
three drafts met more of their requirements than the greedy one alone, for about three times
the engine's work; one designer waits 2.6 to 2.7 times as long for the finished screen
(bench/RESULTS.md, 2026-12-05). So a turn writes one draft unless asked.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from inference.protocol import Engine, GenerationRequest
from inference.serving.copy_bias import schema_words
from inference.serving.request_coverage import coverage
from studio.rendered_views import finalize_view

log = logging.getLogger(__name__)

CANDIDATE_TEMPERATURE = 0.7
CANDIDATE_TOP_P = 0.95
# Drafts still running when the streamed one ends get this long, or this share of the time
# the streamed one took if longer (a slower draft may be longer), before they are aborted.
CANDIDATE_GRACE_SECONDS = 10.0
CANDIDATE_GRACE_SHARE = 0.5
# While drafts finish, how often a Stop is looked for: a stopped turn frees the engine at once.
STOP_POLL_SECONDS = 0.5


@dataclass
class Draft:
    request_id: str
    text: str = ""
    tokens: int = 0
    finish_reason: str = ""
    ended: threading.Event = field(default_factory=threading.Event)

    @property
    def number(self) -> int:
        """Which draft this is: 1 for the first sampled one (the streamed draft is 0)."""
        return int(self.request_id.rpartition("~")[2])


def score(
    request: str, text: str, finish_reason: str, vocabulary: frozenset[str] = frozenset()
) -> tuple[bool, float]:
    """(whole and valid, coverage of the request's words, `vocabulary`'s aside): the larger,
    the better draft."""
    try:  # whole: ended by the grammar, and parsed as it came (UI4A-Bench's "valid")
        whole = finish_reason == "stop" and isinstance(json.loads(text), dict)
    except ValueError:
        whole = False
    if not whole:
        return (False, 0.0)
    final = finalize_view(text, finish_reason=finish_reason)
    if final.spec is None:
        return (False, 0.0)
    return (not final.problems, coverage(request, final.spec, vocabulary))


class Candidates:
    """`count` sampled drafts of `request`, each streamed on `engine` in a thread of its own."""

    def __init__(self, engine: Engine, request: GenerationRequest, count: int) -> None:
        self._engine = engine
        self.started = time.monotonic()
        self.drafts = [Draft(f"{request.request_id}~{i + 1}") for i in range(count)]
        for draft in self.drafts:
            sampled = replace(
                request,
                request_id=draft.request_id,
                temperature=CANDIDATE_TEMPERATURE,
                top_p=CANDIDATE_TOP_P,
            )
            threading.Thread(target=self._write, args=(sampled, draft), daemon=True).start()

    def _write(self, request: GenerationRequest, draft: Draft) -> None:
        try:
            for delta in self._engine.stream(request):
                draft.text += delta.text
                draft.tokens = delta.tokens
                draft.finish_reason = delta.finish_reason or draft.finish_reason
        except Exception:
            log.exception("candidate %s failed", draft.request_id)
            draft.finish_reason = "error"
        finally:
            draft.ended.set()

    def abort(self) -> None:
        """Stop every draft still running (the engine ends each stream with "abort")."""
        for draft in self.drafts:
            if not draft.ended.is_set():
                self._engine.abort(draft.request_id)

    def writing(self) -> int:
        """How many drafts are still being written."""
        return sum(not draft.ended.is_set() for draft in self.drafts)

    def deadline(self, time_limit_seconds: float) -> float:
        """When the drafts still running are given up (on the monotonic clock): after their
        grace, from now, and never past the turn's time limit (counted from their start)."""
        now = time.monotonic()
        grace = max(CANDIDATE_GRACE_SECONDS, (now - self.started) * CANDIDATE_GRACE_SHARE)
        return min(now + grace, self.started + time_limit_seconds)

    def ended(self, deadline: float, stopped: Callable[[], bool] = lambda: False) -> list[Draft]:
        """The drafts that end by `deadline`; the rest are aborted and left out. If `stopped()`
        turns true meanwhile (the designer pressed Stop), every draft is aborted at once and
        none is returned."""
        while self.writing() and time.monotonic() < deadline:
            if stopped():
                self.abort()
                return []
            wait = min(STOP_POLL_SECONDS, max(0.0, deadline - time.monotonic()))
            next(d for d in self.drafts if not d.ended.is_set()).ended.wait(wait)
        self.abort()
        return [draft for draft in self.drafts if draft.ended.is_set()]


def kept_draft(
    request: str, streamed: str, drafts: list[Draft], schema: object = None
) -> Draft | None:
    """The draft to keep instead of the streamed (greedy, ended "stop") text, or None to keep
    that. Later drafts win only by scoring strictly higher. The words of the request's
    `schema` (its keys and enum values: `checkbox`, `table`, `button`) are not counted."""
    vocabulary = schema_words(schema) if schema is not None else frozenset()
    best, best_score = None, score(request, streamed, "stop", vocabulary)
    for draft in drafts:
        drafted = score(request, draft.text, draft.finish_reason, vocabulary)
        if drafted > best_score:
            best, best_score = draft, drafted
    return best
