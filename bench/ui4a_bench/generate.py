"""Runs dev prompts through the real stack: Redis, a Celery worker hosting the vLLM engine,
Daphne, and a throwaway SQLite database, started by `studio.stack` as the tests start it.

Each prompt and variant becomes a stored generation through the studio's own service
(`generation_create` -> Celery `run_generation` -> the engine, constrained unless the variant
says otherwise -> the repaired spec on the row). All are queued at once; the worker runs
`concurrency` of them at a time, so the engine batches them.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.ui4a_bench.devset import DevPrompt
from studio.stack import Stack, free_port, throwaway_stack, wait_worker_ready

STALL_S = 300


@dataclass
class Generated:
    prompt_id: str
    variant: str
    generation_id: str = ""
    status: str = "not run"
    finish_reason: str = ""
    text: str = ""
    spec: dict[str, Any] | None = None
    problems: list[dict[str, Any]] = field(default_factory=list)
    error: str = ""
    tokens: int = 0
    seconds: float | None = None  # on the engine: started to finished, without queue wait

    @property
    def parses(self) -> bool:
        try:
            return isinstance(json.loads(self.text), dict)
        except ValueError:
            return False

    @property
    def valid(self) -> bool:
        """Whole (not cut off), parsed as it came, and valid UI4A once repaired."""
        complete = self.finish_reason == "stop"
        return complete and self.parses and self.spec is not None and not self.problems


def product_max_tokens() -> int:
    """The product's ui limit, as the stack's Django reads it: once `running_stack` set this
    process up (the settings read the stack's environment)."""
    from django.conf import settings

    return int(settings.MACARON_UI_MAX_TOKENS)


@contextmanager
def running_stack(
    run_dir: Path, *, concurrency: int, max_tokens: int | None, log: Callable[[str], None]
) -> Iterator[Stack]:
    """The whole stack, with this process's Django pointed at its database and broker; a ui
    spec's limit is `max_tokens`, or the product's (MACARON_UI_MAX_TOKENS) if None."""
    limit = {} if max_tokens is None else {"MACARON_UI_MAX_TOKENS": str(max_tokens)}
    stack = throwaway_stack(run_dir, limit)
    try:
        stack.start_redis(free_port())
        worker = stack.start_worker(concurrency=concurrency, include=["bench.variant_runs"])
        stack.start_daphne(free_port())
        log(f"waiting for the engine worker (logs in {run_dir})")
        wait_worker_ready(worker, timeout=900)
        for key in ("DATABASE_URL", "REDIS_URL", *limit):
            os.environ[key] = stack.env[key]
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "studio.settings")
        import django

        django.setup()
        yield stack
    finally:
        stack.stop()


def generate_all(
    stack: Stack,
    prompts: list[DevPrompt],
    variants: list[str],
    *,
    log: Callable[[str], None],
    timeout_s: float,
) -> list[Generated]:
    """Queue every prompt under every variant, wait for all, and read back what was stored."""
    from bench.variant_runs import variant_generation_create
    from studio.services.projects import project_create

    runs: list[Generated] = []
    for prompt in prompts:
        for variant in variants:
            generation = variant_generation_create(
                prompt=prompt.prompt,
                expert="ui",
                project_id=project_create().id,
                variant=variant,
            )
            runs.append(Generated(prompt.id, variant, str(generation.id)))
    wait_finished(stack, [r.generation_id for r in runs], log=log, timeout_s=timeout_s)
    for run in runs:
        read_back(run)
    return runs


def wait_finished(
    stack: Stack, ids: list[str], *, log: Callable[[str], None], timeout_s: float
) -> None:
    """Wait until every generation has finished, the deadline passes, or nothing progresses."""
    from django.db.models import Sum

    from studio.models import Generation

    finished = (Generation.Status.DONE, Generation.Status.FAILED)
    deadline = time.monotonic() + timeout_s
    started, shown = time.monotonic(), -1
    progress, progressed_at = (-1, -1), time.monotonic()
    while True:
        rows = Generation.objects.filter(pk__in=ids)
        done = rows.filter(status__in=finished).count()
        tokens = rows.aggregate(total=Sum("tokens"))["total"] or 0
        now = time.monotonic()
        if done != shown:
            log(f"  {done}/{len(ids)} generations finished ({now - started:.0f} s)")
            shown = done
        if (done, tokens) != progress:
            progress, progressed_at = (done, tokens), now
        if done == len(ids):
            break
        if now > deadline or now - progressed_at > STALL_S:
            # The engine streams tokens while anything runs: no new token for minutes means
            # the rest will not finish (a task that crashed leaves its row running).
            log(
                f"  giving up on {len(ids) - done} generations: no progress for "
                f"{now - progressed_at:.0f} s (see the worker log)"
            )
            break
        for service in stack.services:
            service.check_alive()  # a dead worker or Redis: say so now, with its log
        time.sleep(2)


def read_back(run: Generated) -> None:
    """The row as the worker stored it. Read from the database, not through a view that renders
    it: a spec that crashes the renderer must still be counted, as a failure."""
    from studio.models import Generation

    row = Generation.objects.get(pk=run.generation_id)
    run.status = row.status
    if not row.finished:
        run.error = f"still {row.status} when the bench stopped waiting"
        return
    run.finish_reason = row.finish_reason
    run.text = row.text
    run.problems = list(row.problems)
    run.error = row.error
    run.spec = row.spec
    timings = row.timings()
    run.tokens = row.tokens
    if timings["total_s"] is not None and timings["queue_wait_s"] is not None:
        run.seconds = round(timings["total_s"] - timings["queue_wait_s"], 3)
