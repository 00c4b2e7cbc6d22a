"""The bench's count of stages ended by the grammar rather than the model
(bench/ui4a_bench/stage_endings.py), against lines the engine's own logger writes."""

from __future__ import annotations

import logging

import pytest

from bench.ui4a_bench.stage_endings import stage_endings
from inference.serving import staged_decode


def test_it_counts_the_lines_the_engine_logs(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger=staged_decode.__name__):
        staged_decode.log.info(staged_decode.STAGE_CLOSED, "head", "]}}")
        staged_decode.log.info(staged_decode.STAGE_CLOSED, "tail", '"state":{}}')
        staged_decode.log.info(staged_decode.STAGE_CLOSED, "tail", "}")
        staged_decode.log.info(staged_decode.REPEAT_DROPPED, "tail", "]}}")
        staged_decode.log.info(staged_decode.TAIL_STARTED, "rooms", 12.0)
        staged_decode.log.info(staged_decode.STALE_ENDED, "card", "]}]}}")
        staged_decode.log.info(staged_decode.LOOP_ENDED, "form", "]}]}]}}")
        for parent in ("page", "grid", "page"):
            staged_decode.log.info(staged_decode.REPEAT_HIDDEN, parent)
    found = stage_endings("\n".join(f"[INFO] {r.getMessage()}" for r in caplog.records))
    assert found == {
        "closed_at_the_token_limit": {"head": 1, "tail": 2},
        "ended_at_a_dropped_copy": {"tail": 1},
        "head_ended_after_a_stale_child": {"card": 1},
        "head_ended_in_a_loop_of_copies": {"form": 1},
        "head_copies_hidden": {"grid": 1, "page": 2},
    }


def test_a_log_without_stages_counts_nothing() -> None:
    assert stage_endings("worker ready\n") == {
        "closed_at_the_token_limit": {},
        "ended_at_a_dropped_copy": {},
        "head_ended_after_a_stale_child": {},
        "head_ended_in_a_loop_of_copies": {},
        "head_copies_hidden": {},
    }


def test_the_warm_ups_stages_are_not_counted() -> None:
    """The worker's warm-up decodes one token of a spec, so its head and tail are cut at that
    limit: the lines before its startup phase line are not the bench's."""
    warm_up = (
        "staged decode: the head, cut at the token limit, closed with '}'\n"
        "staged decode: the tail, cut at the token limit, closed with ''\n"
        'macaron-startup {"end": 2.0, "phase": "warm-up", "pid": 1, "start": 1.0}\n'
    )
    found = stage_endings(
        warm_up + "staged decode: the tail, cut at the token limit, closed with ''"
    )
    assert found["closed_at_the_token_limit"] == {"tail": 1}
