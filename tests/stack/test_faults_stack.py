"""Faults injected on the real stack while a studio generation streams (bench/faults.py runs
all five with more generations): the generation ends, its watcher sees the end, and no
character it had seen is lost. On a stack of its own: a Redis restart reaches every client of
that Redis, and the suite's shared stack has others."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from bench.faults import Faults, fault_stack, run_fault
from tests.conftest import CORES

pytestmark = pytest.mark.stack


@pytest.fixture(scope="module")
def faults(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Faults]:
    # Beside the shared stack's engine: half the cores each, and short texts, so that a fault
    # meets a generation mid-stream without the test waiting on long ones.
    sizing = {"MACARON_ENGINE_THREADS": str(max(1, CORES // 2)), "MACARON_TEXT_MAX_TOKENS": "96"}
    with fault_stack(tmp_path_factory.mktemp("faults"), sizing) as on_its_own:
        yield on_its_own


@pytest.mark.parametrize("fault", ["redis-restart", "channel-overflow"])
def test_a_generation_survives_the_fault_with_nothing_lost(faults: Faults, fault: str) -> None:
    result = run_fault(faults, fault, generations=1)
    assert (result.ended, result.chars_lost) == (1, 0), result
    assert result.statuses == ["done"], result
    # The worker lived through it (kombu once stopped it after a Redis restart), and serves on.
    time.sleep(2)
    faults.worker.check_alive()
    again = run_fault(faults, "none", generations=1)
    assert (again.ended, again.statuses) == (1, ["done"]), again
