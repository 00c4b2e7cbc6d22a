"""The bench's reading of the worker's staged-decoding log lines (bench/ui4a_bench/tail_waits.py),
against lines written by the engine's own logger format."""

from __future__ import annotations

import logging

import pytest

from bench.ui4a_bench.tail_waits import tail_waits
from inference.serving import staged_decode


def test_it_reads_the_lines_the_engine_logs(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger=staged_decode.__name__):
        for names, ms in (("rooms, sales", 120.4), ("no datasets", 80.0), ("trips", 990.6)):
            staged_decode.log.info(staged_decode.TAIL_STARTED, names, ms)
    found = tail_waits("\n".join(f"[INFO] {r.getMessage()}" for r in caplog.records))
    assert found["tails"] == 3
    assert found["tails_declaring_datasets"] == 2
    assert found["ms"] == {"min": 80, "median": 120, "p95": 991, "max": 991}


def test_a_log_without_stages_says_so() -> None:
    assert tail_waits("worker ready\n") == {"tails": 0}
