"""Faults injected on the real stack while a studio generation streams (bench/faults.py runs all
five with more generations): the generation ends, its watcher sees the end, and no character
it had seen is lost."""

from __future__ import annotations

import time
from urllib.parse import urlparse

import pytest

from bench.faults import Faults, run_fault
from studio.stack import Stack

pytestmark = pytest.mark.stack


def faults_on(stack: Stack) -> Faults:
    worker = next(s for s in stack.services if s.name == "worker")
    redis_port = urlparse(stack.env["REDIS_URL"]).port
    assert redis_port is not None
    return Faults(stack, worker, redis_port, stack.http_port)


@pytest.mark.parametrize("fault", ["redis-restart", "channel-overflow"])
def test_a_generation_survives_the_fault_with_nothing_lost(stack: Stack, fault: str) -> None:
    faults = faults_on(stack)
    result = run_fault(faults, fault, generations=1)
    assert (result.ended, result.chars_lost) == (1, 0), result
    assert result.statuses == ["done"], result
    # The worker lived through it (kombu once stopped it after a Redis restart), and serves on.
    time.sleep(2)
    faults.worker.check_alive()
    again = run_fault(faults, "none", generations=1)
    assert (again.ended, again.statuses) == (1, ["done"]), again
