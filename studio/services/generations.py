"""Creating generations and reading them back; the engine run itself lives in `streaming`."""

from __future__ import annotations

import logging
import uuid
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from inference.experts import EXPERTS
from inference.variants import DEFAULT_VARIANT, VARIANTS
from studio.models import Generation, Project
from studio.selectors import expert_resolve
from studio.services.errors import InvalidRequest
from studio.services.views import view_payload

log = logging.getLogger(__name__)


def generation_create(
    *, prompt: str, expert: str, project_id: uuid.UUID, variant: str = DEFAULT_VARIANT
) -> Generation:
    """Store a queued generation and enqueue its run once the row is committed. Only UI4A-Bench
    passes a `variant` (the base model, or no grammar); it travels in the task's arguments."""
    prompt = prompt.strip()
    if not prompt:
        raise InvalidRequest("empty_prompt", "Describe the interface you want first.")
    limit = settings.MACARON_PROMPT_MAX_CHARS
    if len(prompt) > limit:
        raise InvalidRequest(
            "prompt_too_long", f"The prompt has {len(prompt)} characters; the limit is {limit}."
        )
    if variant not in VARIANTS:
        raise InvalidRequest("unknown_variant", f"Unknown variant {variant[:40]!r}.")
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
        generation = Generation.objects.create(
            project=project,
            prompt=prompt,
            expert=expert,
            structured=resolved.expert.structured,
            profile=settings.CELERY_TASK_DEFAULT_QUEUE,
        )
        transaction.on_commit(lambda: generation_enqueue(generation, variant=variant))
    return generation


def generation_enqueue(generation: Generation, *, variant: str = DEFAULT_VARIANT) -> None:
    """Hand a committed generation to its profile's queue; call it from `on_commit`."""
    from studio.services.streaming import generation_fail
    from studio.tasks import run_generation

    try:
        # The task id is the generation's, so worker logs name the generation they ran. A bench
        # variant travels as a keyword; the served path's task message stays as it was.
        kwargs = {} if variant == DEFAULT_VARIANT else {"variant": variant}
        run_generation.apply_async(
            (str(generation.id),), kwargs, queue=generation.profile, task_id=str(generation.id)
        )
    except Exception:
        log.exception("could not enqueue generation %s", generation.id)
        generation_fail(
            generation_id=generation.id,
            error="The engine queue is unreachable; try again in a moment.",
        )


def generation_cancel(*, generation_id: uuid.UUID | str) -> bool:
    """Stop a generation nobody waits for any more; False if it had already finished.

    Only the row changes here. The worker notices at its next batch, whose write finds the row
    no longer running, and aborts the engine request (see `streaming`); a queued one never runs.
    """
    cancelled = Generation.objects.filter(
        pk=generation_id, status__in=(Generation.Status.QUEUED, Generation.Status.RUNNING)
    ).update(status=Generation.Status.CANCELLED, finished_at=timezone.now())
    return bool(cancelled)


def generation_snapshot(*, generation_id: uuid.UUID) -> dict[str, Any]:
    """Everything a client needs to (re)draw a generation, whatever it has missed."""
    # API generations belong to their key: the studio's open endpoint never shows them.
    generation = Generation.objects.filter(pk=generation_id, api_key__isnull=True).first()
    if generation is None:
        raise InvalidRequest("unknown_generation", "That generation does not exist.")
    return generation_payload(generation)


def generation_payload(generation: Generation) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "generation": str(generation.id),
        "project": str(generation.project_id) if generation.project_id else None,
        "prompt": generation.prompt,
        "expert": generation.expert,
        "status": generation.status,
        "seq": generation.seq,
        "text": generation.text,
        "error": generation.error,
        "finish_reason": generation.finish_reason,
        "problems": generation.problems,
        "timings": generation.timings(),
        "adapter_sha256": generation.adapter_sha256,
    }
    if generation.structured:
        spec = generation.spec if generation.finished else None
        payload.update(view_payload(generation.text, final_spec=spec))
    return payload
