"""Starting studio generations (fresh, refining a version, or refining one selected element),
enqueueing their run by task name, stopping and cancelling them, and what follows whenever one
ends. The run itself is the worker's (`studio.worker.run`); reading them back is
`studio.selectors`'."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from inference.experts import EXPERTS
from studio import messages
from studio.celery import RUN_GENERATION, app
from studio.errors import PROJECT_GONE, InvalidRequest
from studio.models import Generation, Project, Version
from studio.selectors import (
    expert_resolve,
    project_history,
    project_of_user,
    version_summary,
)
from studio.services.broadcast import announce_done, group_send, watchers_group
from studio.services.limits import studio_limits_acquire, studio_limits_release
from ui4a.subtree import SubtreeError, node_path

log = logging.getLogger(__name__)

OPEN_STATUSES = (Generation.Status.QUEUED, Generation.Status.RUNNING)
GENERATION_RUNNING = "A generation is already running in this project; stop it first."


def generation_start(
    *,
    user: Any,
    project_id: uuid.UUID | None,
    prompt: str,
    expert: str,
    base_version_id: uuid.UUID | None = None,
    target: str = "",
    new_project_id: uuid.UUID | None = None,
    best_of: bool = False,
) -> Generation:
    """A studio `generate`: in one of the user's projects, or (`project_id` None) in a new
    project of theirs with the id `new_project_id`, made only if the generation is accepted.
    The caller picks that id so it can follow the project's group before the run starts."""
    with transaction.atomic():
        if project_id is None:
            project = Project.objects.create(pk=new_project_id or uuid.uuid4(), owner=user)
        else:
            found = project_of_user(user=user, project_id=project_id)
            if found is None:
                raise InvalidRequest("unknown_project", PROJECT_GONE)
            project = found
        return generation_create(
            prompt=prompt,
            expert=expert,
            project_id=project.pk,
            base_version_id=base_version_id,
            target=target,
            best_of=best_of,
        )


def generation_create(
    *,
    prompt: str,
    expert: str,
    project_id: uuid.UUID,
    base_version_id: uuid.UUID | None = None,
    target: str = "",
    best_of: bool = False,
) -> Generation:
    """Store a queued generation and enqueue its run once the row is committed. A project with
    an owner counts it against the owner's limits (`studio.services.limits`)."""
    with transaction.atomic():
        generation = generation_store(
            prompt=prompt,
            expert=expert,
            project_id=project_id,
            base_version_id=base_version_id,
            target=target,
            best_of=best_of,
        )
        owner_id = generation.project.owner_id if generation.project else None
        if owner_id is not None:
            # Refused: the exception rolls the row back. Taken: `generation_ended` frees it.
            studio_limits_acquire(user_id=owner_id, generation_id=str(generation.pk))
        transaction.on_commit(lambda: generation_enqueue(generation))
    return generation


def generation_store(
    *,
    prompt: str,
    expert: str,
    project_id: uuid.UUID,
    base_version_id: uuid.UUID | None = None,
    target: str = "",
    best_of: bool = False,
) -> Generation:
    """Check a studio prompt and store it as a queued generation, enqueueing nothing: for
    `generation_create`, and for callers that run it another way (UI4A-Bench's variants).
    `best_of`: a new ui screen is written as `MACARON_UI_CANDIDATES` drafts, the best kept
    (studio/worker/candidates.py); its `options` say how many."""
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
        # Locked, so two requests cannot both find the project idle.
        project = Project.objects.select_for_update().filter(pk=project_id).first()
        if project is None:
            raise InvalidRequest("unknown_project", PROJECT_GONE)
        base, target = _refinement_of(
            project,
            base_version_id=base_version_id,
            target=target,
            structured=resolved.expert.structured,
        )
        # The Python panel's chat turns (with `messages`) draw nothing: they do not count.
        running = Generation.objects.filter(project=project, status__in=OPEN_STATUSES)
        if running.filter(messages=[]).exists():
            raise InvalidRequest("generation_running", GENERATION_RUNNING)
        return Generation.objects.create(
            project=project,
            prompt=prompt,
            expert=expert,
            structured=resolved.expert.structured,
            profile=settings.CELERY_TASK_DEFAULT_QUEUE,
            base_version=base,
            target=target,
            options=_drafts(best_of, resolved.expert.structured, base),
        )


def _drafts(best_of: bool, structured: bool, base: Version | None) -> dict[str, Any]:
    """The options of a studio turn: how many drafts a new ui screen asked the best of writes."""
    count = int(settings.MACARON_UI_CANDIDATES)
    return {"drafts": count} if best_of and structured and base is None and count > 1 else {}


def _refinement_of(
    project: Project, *, base_version_id: uuid.UUID | None, target: str, structured: bool
) -> tuple[Version | None, str]:
    """The version a prompt refines and the element it selects, checked against the project."""
    if base_version_id is None:
        if target:
            raise InvalidRequest(
                "unknown_target", "Select an element of a version first; there is none to refine."
            )
        return None, ""
    if not structured:
        raise InvalidRequest("unknown_version", "Only the ui expert refines a version.")
    base = Version.objects.filter(pk=base_version_id, project=project).first()
    if base is None:
        raise InvalidRequest("unknown_version", "That version is not in this project.")
    if target in ("", "/root"):  # the page itself: the whole spec
        return base, ""
    try:
        node_path(base.spec, target)
    except SubtreeError as exc:
        raise InvalidRequest(
            "unknown_target", f"The selected element is not in version {base.number}: {exc}"
        ) from None
    return base, target


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
    """Mark a generation that never reached the engine as failed, and tell its watchers; a
    generation that ended meanwhile is left as it is, and its watchers had their message."""
    failed = Generation.objects.filter(pk=generation_id, status__in=OPEN_STATUSES).update(
        status=Generation.Status.FAILED,
        finish_reason="error",
        error=error,
        finished_at=timezone.now(),
    )
    if failed:
        generation_ended(Generation.objects.get(pk=generation_id))


def generation_stop(*, user: Any, generation_id: uuid.UUID) -> bool:
    """The Stop button: cancel a generation in one of the user's projects; False if it had
    already finished (its watchers have had its final message then)."""
    signed_in = user is not None and getattr(user, "is_authenticated", False)
    if (
        not signed_in
        or not Generation.objects.filter(pk=generation_id, project__owner=user).exists()
    ):
        raise InvalidRequest("unknown_generation", "That generation does not exist.")
    return generation_cancel(generation_id=generation_id)


def generation_cancel(*, generation_id: uuid.UUID | str) -> bool:
    """Stop a generation; False if it had already finished.

    The row is marked cancelled and its watchers are told at once. The worker notices at its
    next batch, whose write finds the row no longer running, aborts the engine request and
    keeps what had streamed (`studio.worker.row`); a queued one never runs.
    """
    cancelled = Generation.objects.filter(pk=generation_id, status__in=OPEN_STATUSES).update(
        status=Generation.Status.CANCELLED, finish_reason="cancelled", finished_at=timezone.now()
    )
    if cancelled:
        generation_ended(Generation.objects.get(pk=generation_id))
    return bool(cancelled)


def generation_ended(generation: Generation, *, version: Version | None = None) -> None:
    """Whatever ended a generation (its run, a stop, a failure, the orphan sweep), exactly once:
    free its owner's slot, send watchers the final message (with the version it added), and
    tell the project group when its current version moved.

    The row has ended by now, so a step that fails (Redis away) is logged and the next one is
    still tried: a watcher that misses the final message finds the end by polling the row."""
    if generation.project_id is None:  # an API generation: its request frees its own slot
        _attempt("announce the end of", generation, lambda: announce_done(generation))
        return
    project = Project.objects.filter(pk=generation.project_id).first()
    if project is not None and project.owner_id is not None:
        owner_id = project.owner_id
        _attempt(
            "free the slot of",
            generation,
            lambda: studio_limits_release(user_id=owner_id, generation_id=str(generation.pk)),
        )
    summary = version_summary(version) if version else None
    _attempt("announce the end of", generation, lambda: announce_done(generation, version=summary))
    if version is not None and project is not None:
        changed = messages.project_changed(project=project.pk, **project_history(project=project))
        _attempt(
            "announce the version of",
            generation,
            lambda: group_send(watchers_group(generation), changed),
        )


def _attempt(what: str, generation: Generation, step: Callable[[], None]) -> None:
    try:
        step()
    except Exception:
        log.exception("could not %s generation %s", what, generation.pk)
