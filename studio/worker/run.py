"""Runs one stored generation on the engine: claim the queued row, build the engine request
from its expert as registered now (a refinement quotes the version it revises: `refinement`),
then stream it, batch by batch (`batches`), until it ends, is cancelled (`row`) or runs past the
time limit. A generation runs at most once.
"""

from __future__ import annotations

import logging
import time
import uuid

from django.conf import settings
from django.utils import timezone

from inference.protocol import Engine, GenerationRequest, Message
from inference.serving import hosting
from inference.serving.prompts import (
    RefinementTooLarge,
    chat_request_for,
    refine_request_for,
    request_for,
)
from studio.models import Generation
from studio.selectors import ResolvedExpert, expert_resolve
from studio.stored_tables import project_prompt_with_tables, project_tables
from studio.worker.batches import Batcher
from studio.worker.refinement import Basis, basis_of
from studio.worker.row import Progress, row_finish
from ui4a.subtree import SubtreeError

log = logging.getLogger(__name__)

TIMED_OUT = "This generation ran past the time limit and was stopped. Try again."


def engine_failed(generation_id: uuid.UUID | str) -> str:
    """What clients are told of an engine exception: its id in the log, never its text."""
    return f"The engine failed on generation {generation_id}; try again, or quote its id."


def generation_run(
    *, generation_id: uuid.UUID | str, engine: Engine | None = None, worker: str = ""
) -> None:
    """Run a queued generation to the end. `worker` names the Celery worker claiming it, for
    the orphan sweep (worker/orphans.py)."""
    generation = generation_claim(generation_id=generation_id, worker=worker)
    if generation is None:
        return
    request = generation_request(generation)
    if request is not None:
        generation_stream(generation, request, engine=engine)


def generation_claim(*, generation_id: uuid.UUID | str, worker: str) -> Generation | None:
    """Mark a queued generation running under `worker`; None if it is not queued (it ran)."""
    claimed = Generation.objects.filter(pk=generation_id, status=Generation.Status.QUEUED).update(
        status=Generation.Status.RUNNING, started_at=timezone.now(), worker=worker
    )
    if not claimed:
        log.warning("generation %s is not queued; not running it again", generation_id)
        return None
    return Generation.objects.select_related("base_version__generation").get(pk=generation_id)


def generation_request(generation: Generation) -> GenerationRequest | None:
    """The engine request for a claimed generation, its expert resolved now, not when queued:
    a version registered meanwhile is the one that answers. None (and the row failed) if the
    expert is gone or the refinement cannot be asked (its element is gone, its spec too large)."""
    resolved = expert_resolve(name=generation.expert)
    if resolved is None:
        error = f"The expert {generation.expert!r} was unregistered before this request ran."
        row_finish(generation, Progress(), finish_reason="error", error=error)
        return None
    try:
        return _engine_request(generation, resolved, basis_of(generation))
    except (SubtreeError, RefinementTooLarge) as exc:
        row_finish(generation, Progress(), finish_reason="error", error=str(exc))
        return None


def generation_stream(
    generation: Generation, request: GenerationRequest, *, engine: Engine | None = None
) -> None:
    """Stream a claimed generation's request on the engine and store how it ended."""
    engine = engine or hosting.current_engine()
    # Checked when the request was built (`generation_request`); a pure, cheap re-read.
    basis = basis_of(generation)
    batcher = Batcher(generation, settings.MACARON_BATCH_SECONDS, basis=basis)
    if request.adapter is not None:
        batcher.progress.adapter_sha256 = request.adapter.sha256
    finish_reason = ""
    aborted = timed_out = False
    deadline = time.monotonic() + settings.MACARON_GENERATION_TIME_LIMIT_SECONDS
    try:
        for delta in engine.stream(request):
            batcher.add(delta)
            finish_reason = delta.finish_reason or finish_reason
            timed_out = timed_out or time.monotonic() > deadline
            if (batcher.cancelled or timed_out) and not aborted:
                # The engine ends the stream with a last "abort" delta, which frees the slot.
                engine.abort(request.request_id)
                aborted = True
        batcher.flush()
    except Exception:
        # The exception's text stays in the log: it can hold paths and the engine's internals.
        log.exception("generation %s failed", generation.pk)
        batcher.flush()
        _finish(batcher, finish_reason="error", error=engine_failed(generation.pk))
        return
    tokens = batcher.progress.tokens
    if timed_out and not batcher.cancelled:
        log.warning("generation %s timed out after %d tokens", generation.pk, tokens)
        _finish(batcher, finish_reason="error", error=TIMED_OUT)
        return
    if batcher.cancelled:
        log.info("generation %s cancelled after %d tokens", generation.pk, tokens)
        _finish(batcher, finish_reason="cancelled", error="")
        return
    _finish(batcher, finish_reason=finish_reason or "stop", error="")


def _finish(batcher: Batcher, *, finish_reason: str, error: str) -> None:
    row_finish(
        batcher.generation,
        batcher.progress,
        finish_reason=finish_reason,
        error=error,
        basis=batcher.basis,
        tables=batcher.tables,
    )


def _engine_request(
    generation: Generation, resolved: ResolvedExpert, basis: Basis | None
) -> GenerationRequest:
    if basis is not None:  # a studio refinement: the base spec, then the instruction
        return refine_request_for(
            request_id=str(generation.pk),
            expert=resolved.expert,
            first_prompt=_with_profiles(generation, basis.first_prompt),
            spec=basis.spec,
            instruction=generation.prompt,
            max_tokens=_max_tokens(resolved.expert.structured),
            max_spec_chars=settings.MACARON_REFINE_SPEC_MAX_CHARS,
            adapter=resolved.adapter,
            data_queries=_has_datasets(generation),
        )
    if not generation.messages:  # a studio turn: one prompt
        return request_for(
            request_id=str(generation.pk),
            expert=resolved.expert,
            prompt=_with_profiles(generation, generation.prompt),
            max_tokens=_max_tokens(resolved.expert.structured),
            adapter=resolved.adapter,
            data_queries=_has_datasets(generation),
        )
    options = generation.options
    return chat_request_for(
        request_id=str(generation.pk),
        expert=resolved.expert,
        adapter=resolved.adapter,
        messages=tuple(Message(m["role"], m["content"]) for m in generation.messages),
        max_tokens=int(options.get("max_tokens") or _max_tokens(resolved.expert.structured)),
        temperature=float(options.get("temperature", 0.0)),
        top_p=float(options.get("top_p", 1.0)),
        stop=tuple(options.get("stop") or ()),
        tools=tuple(options["tools"]) if options.get("tools") else None,
    )


def _with_profiles(generation: Generation, prompt: str) -> str:
    """A studio ui prompt as the expert sees it: after its project's datasets' profiles (their
    columns, types and ranges; never their rows), which its queries may then name."""
    if not (generation.structured and generation.project is not None):
        return prompt
    return project_prompt_with_tables(generation.project, prompt)


def _has_datasets(generation: Generation) -> bool:
    """Whether the studio project has datasets its spec may query (else no query is decoded)."""
    project = generation.project if generation.structured else None
    return project is not None and bool(project_tables(project))


def _max_tokens(structured: bool) -> int:
    if structured:
        return int(settings.MACARON_UI_MAX_TOKENS)
    return int(settings.MACARON_TEXT_MAX_TOKENS)
