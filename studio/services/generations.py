"""Creating generations, enqueueing their run by task name, and cancelling them; the run itself
is the worker's (`studio.worker.run`), and reading them back is `studio.selectors`'."""

from __future__ import annotations

import logging
import uuid

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from inference.experts import EXPERTS
from studio.celery import RUN_GENERATION, app
from studio.errors import InvalidRequest
from studio.models import Generation, Project
from studio.selectors import expert_resolve
from studio.services.broadcast import announce_done

log = logging.getLogger(__name__)


def generation_create(*, prompt: str, expert: str, project_id: uuid.UUID) -> Generation:
    """Store a queued generation and enqueue its run once the row is committed."""
    with transaction.atomic():
        generation = generation_store(prompt=prompt, expert=expert, project_id=project_id)
        transaction.on_commit(lambda: generation_enqueue(generation))
    return generation


def generation_store(*, prompt: str, expert: str, project_id: uuid.UUID) -> Generation:
    """Check a studio prompt and store it as a queued generation, enqueueing nothing: for
    `generation_create`, and for callers that run it another way (UI4A-Bench's variants)."""
    prompt = prompt.strip()
    if not prompt:
        raise InvalidRequest("empty_prompt", "Describe the interface you want first.")
    limit = settings.MACARON_PROMPT_MAX_CHARS
    if len(prompt) > limit:
        raise InvalidRequest(
            "prompt_too_long", f"The prompt has {len(prompt)} characters; the limit is {limit}."
        )
    resolved = expert_resolve(name=expert)
    if resolved is None:
        names = ", ".join(sorted(EXPERTS))
        raise InvalidRequest(
            "unknown_expert",
            f"Unknown expert {expert[:40]!r}; use one of {names} or a registered expert.",
        )
    with transaction.atomic():
        project = Project.objects.filter(pk=project_id).first() if project_id else None
        if project is None:
            raise InvalidRequest("unknown_project", "That project does not exist.")
        return Generation.objects.create(
            project=project,
            prompt=prompt,
            expert=expert,
            structured=resolved.expert.structured,
            profile=settings.CELERY_TASK_DEFAULT_QUEUE,
        )


def generation_enqueue(generation: Generation) -> None:
    """Hand a committed generation to its profile's queue; call it from `on_commit`. Sent by
    name, so this process never imports the worker's task."""
    try:
        # The task id is the generation's, so worker logs name the generation they ran.
        app.send_task(
            RUN_GENERATION,
            args=(str(generation.id),),
            queue=generation.profile,
            task_id=str(generation.id),
        )
    except Exception:
        log.exception("could not enqueue generation %s", generation.id)
        generation_fail(
            generation_id=generation.id,
            error="The engine queue is unreachable; try again in a moment.",
        )


def generation_fail(*, generation_id: uuid.UUID | str, error: str) -> None:
    """Mark a generation that never reached the engine as failed, and tell its watchers."""
    Generation.objects.filter(
        pk=generation_id, status__in=(Generation.Status.QUEUED, Generation.Status.RUNNING)
    ).update(
        status=Generation.Status.FAILED,
        finish_reason="error",
        error=error,
        finished_at=timezone.now(),
    )
    announce_done(Generation.objects.get(pk=generation_id))


def generation_cancel(*, generation_id: uuid.UUID | str) -> bool:
    """Stop a generation nobody waits for any more; False if it had already finished.

    Only the row changes here. The worker notices at its next batch, whose write finds the row
    no longer running, and aborts the engine request (`studio.worker.row`); a queued one never
    runs.
    """
    cancelled = Generation.objects.filter(
        pk=generation_id, status__in=(Generation.Status.QUEUED, Generation.Status.RUNNING)
    ).update(status=Generation.Status.CANCELLED, finished_at=timezone.now())
    return bool(cancelled)
