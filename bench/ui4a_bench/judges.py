"""Judging many specs at once: a pool of processes, each with its own Chromium.

Judging is the bench's second long phase (a fresh load per interaction check), and it runs
after the engine has stopped, so every core is free for it.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from multiprocessing import util
from pathlib import Path
from typing import Any

from bench.ui4a_bench.judge import Verdict, judge
from bench.ui4a_bench.requirements import Requirement
from bench.ui4a_bench.scripts import Step
from studio.chromium import launch_chromium

# A spec, its prompt's requirements and script, where its screenshot goes, and whether to run
# the interaction checks derived from the spec.
Job = tuple[dict[str, Any] | None, list[Requirement], tuple[Step, ...], Path, bool]

_host: Any = None  # this process's ViewHost, made by _start


def _start() -> None:
    """Launch this worker's Chromium once; closed when the pool shuts the worker down."""
    global _host
    from playwright.sync_api import sync_playwright

    from bench.ui4a_bench.view import ViewHost

    playwright = sync_playwright().start()
    browser = launch_chromium(playwright)
    _host = ViewHost(browser)

    def stop() -> None:
        browser.close()
        playwright.stop()

    util.Finalize(None, stop, exitpriority=10)


def _judge(job: Job) -> Verdict:
    spec, wanted, script, screenshot, derived = job
    return judge(_host, spec, wanted, screenshot=screenshot, script=script, derived=derived)


def judge_many(
    jobs: list[Job], *, workers: int, log: Callable[[str], None]
) -> Iterator[tuple[int, Verdict]]:
    """Each job's verdict with its index, as they finish."""
    context = multiprocessing.get_context("spawn")  # no stack, Django or threads inherited
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start) as pool:
        futures = {pool.submit(_judge, job): index for index, job in enumerate(jobs)}
        for done, future in enumerate(as_completed(futures), start=1):
            log(f"  judged {done}/{len(jobs)}")
            yield futures[future], future.result()
