"""The model's threads follow the load (inference/serving/busy_threads.py): the idle count for a
step of one request, the busy count for a step of two or more; the settings that choose them,
and how they reach vLLM's scheduler."""

from __future__ import annotations

import importlib
import os
from types import SimpleNamespace

import pytest

from inference.serving.busy_threads import BUSY_THREADS, BusyThreadsScheduler, ThreadsByLoad
from inference.serving.engine import VllmEngine
from inference.settings import EngineSettings


class FakeOpenMP:
    def __init__(self, threads: int) -> None:
        self.threads, self.sets = threads, 0

    def set(self, threads: int) -> None:
        self.threads, self.sets = threads, self.sets + 1


def test_a_step_of_two_requests_or_more_runs_on_the_busy_count() -> None:
    omp = FakeOpenMP(1)
    threads = ThreadsByLoad(1, 2, current=lambda: omp.threads, set_threads=omp.set)
    assert [threads.fit(n) for n in (0, 1, 2, 5, 1)] == [1, 1, 2, 2, 1]
    assert omp.threads == 1
    assert omp.sets == 2  # set only where it differed: to 2, then back to 1


def test_a_count_changed_under_it_is_set_again_at_the_next_step() -> None:
    """numba's parallel loops (vLLM's drafter) set OpenMP's count between forwards."""
    omp = FakeOpenMP(1)
    threads = ThreadsByLoad(1, 2, current=lambda: omp.threads, set_threads=omp.set)
    threads.fit(3)
    omp.threads = 1  # as a numba loop would
    assert threads.fit(3) == 2 and omp.threads == 2


def test_busy_threads_default_to_the_cores_unless_threads_were_split_by_hand(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("MACARON_ENGINE_BUSY_THREADS", raising=False)
    monkeypatch.delenv("MACARON_ENGINE_THREADS", raising=False)
    assert EngineSettings.from_env().cpu_busy_threads == len(os.sched_getaffinity(0))
    monkeypatch.setenv("MACARON_ENGINE_THREADS", "1")  # e.g. two workers on 2 cores
    assert EngineSettings.from_env().cpu_busy_threads is None
    monkeypatch.setenv("MACARON_ENGINE_BUSY_THREADS", "3")
    assert EngineSettings.from_env().cpu_busy_threads == 3
    monkeypatch.setenv("MACARON_ENGINE_BUSY_THREADS", "0")
    assert EngineSettings.from_env().cpu_busy_threads is None


@pytest.mark.parametrize("jump_forward", [True, False])
def test_the_counts_reach_vllms_scheduler_with_or_without_jump_forward(
    monkeypatch: pytest.MonkeyPatch, jump_forward: bool
) -> None:
    monkeypatch.setenv("MACARON_ENGINE_THREADS", "1")
    monkeypatch.setenv("MACARON_ENGINE_BUSY_THREADS", "2")
    monkeypatch.setenv("MACARON_JUMP_FORWARD", "1" if jump_forward else "0")
    chosen = VllmEngine._scheduler(SimpleNamespace(settings=EngineSettings.from_env()))  # type: ignore[arg-type]
    assert chosen["additional_config"][BUSY_THREADS] == {"idle": 1, "busy": 2}
    module, _, name = chosen["scheduler_cls"].rpartition(".")
    assert name == ("JumpForwardScheduler" if jump_forward else "BusyThreadsScheduler")
    assert issubclass(getattr(importlib.import_module(module), name), BusyThreadsScheduler)


def test_equal_counts_leave_vllms_scheduler_as_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MACARON_ENGINE_THREADS", "2")
    monkeypatch.setenv("MACARON_ENGINE_BUSY_THREADS", "2")
    monkeypatch.setenv("MACARON_JUMP_FORWARD", "0")
    assert VllmEngine._scheduler(SimpleNamespace(settings=EngineSettings.from_env())) == {}  # type: ignore[arg-type]
