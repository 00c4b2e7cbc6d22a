"""More OpenMP threads for the model while several requests share its steps
(`MACARON_ENGINE_BUSY_THREADS`).

One engine thread serves one designer fastest on a small host: a second thread takes the core
that Daphne, Celery and the designer's own browser draw on, and a single request's forward is
too small to split well (bench/RESULTS.md, "One engine thread or two"). Several requests in a
step are a forward large enough to split, and their users' browsers are on other machines. So
the scheduler, which knows how many requests the next forward holds, sets the model's threads
before it: the busy count while a step holds two requests or more, the idle count otherwise.

Why the scheduler may: on a CPU host our engine runs the model in the engine-core process
(vLLM's uni executor, inference/serving/engine.py), and that process schedules a step and runs
its forward on the same thread, one after the other; OpenMP's thread count is that thread's
setting, read by each parallel region torch and oneDNN start. vLLM's CPU worker replaces
`torch.set_num_threads` with a no-op because it may have pinned OpenMP's threads to cores (its
multiprocess executor, which ours does not use); the builtin it replaced
(`torch._C.set_num_threads`) is called instead. numba's parallel loops (vLLM's prompt-lookup
drafter) set the same count after a forward, so it is checked again before every step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from vllm.v1.core.sched.scheduler import Scheduler

# vLLM's `additional_config` key the engine passes the counts under: {"idle": 1, "busy": 2}.
BUSY_THREADS = "macaron_busy_threads"


class ThreadsByLoad:
    """The thread count a step of `requests` requests runs on, set where it differs."""

    def __init__(
        self,
        idle: int,
        busy: int,
        *,
        current: Callable[[], int] = torch.get_num_threads,
        set_threads: Callable[[int], None] = torch._C.set_num_threads,
    ) -> None:
        self.idle, self.busy = idle, busy
        self._current, self._set = current, set_threads

    def fit(self, requests: int) -> int:
        wanted = self.busy if requests >= 2 else self.idle
        if self._current() != wanted:
            self._set(wanted)
        return wanted


class BusyThreadsScheduler(Scheduler):  # type: ignore[misc]
    """vLLM's scheduler, setting the model's threads for each step it schedules (see the module
    doc); without the engine's counts in the config, vLLM's scheduler as it is."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        counts = (self.vllm_config.additional_config or {}).get(BUSY_THREADS)
        self._threads = ThreadsByLoad(int(counts["idle"]), int(counts["busy"])) if counts else None

    def schedule(self, *args: Any, **kwargs: Any) -> Any:
        output = super().schedule(*args, **kwargs)
        if self._threads is not None:
            self._threads.fit(len(output.num_scheduled_tokens))
        return output

    def update_from_output(self, *args: Any, **kwargs: Any) -> Any:
        outputs = super().update_from_output(*args, **kwargs)
        # The engine core schedules nothing while it has no request, so the idle count is put
        # back here, as the last request ends: what the engine reports at rest.
        if self._threads is not None and self.get_num_unfinished_requests() == 0:
            self._threads.fit(0)
        return outputs
