"""Runs one stored generation on the engine: claim the queued row, build the engine request
from its expert as registered now (a refinement quotes the version it revises: `refinement`),
then stream it, batch by batch (`batches`), until it ends, is cancelled (`row`), runs past the
time limit or stalls (no delta for the stall limit, `watchdog`). A generation runs at most once,
and every run ends its row: an exception anywhere fails it, keeping the text so far.
"""

from __future__ import annotations

import datetime
import logging
import time
import uuid

from django.conf import settings
from django.utils import timezone

from inference.loras import adapter_over_datasets
from inference.protocol import Engine, GenerationRequest, Message
from inference.serving import hosting
from inference.serving.prompts import (
    RefinementTooLarge,
    chat_request_for,
    refine_request_for,
    request_for,
)
from inference.settings import EngineSettings
from studio import messages
from studio.models import Generation
from studio.selectors import ResolvedExpert, expert_resolve
from studio.stored_tables import project_prompt_with_tables, project_tables
from studio.worker.batches import Batcher
from studio.worker.candidates import Candidates, kept_draft
from studio.worker.refinement import Basis, basis_of
from studio.worker.row import Progress, row_fail, row_finish
from studio.worker.watchdog import deltas_watched
from ui4a.subtree import SubtreeError
from ui4a.tables import Table

log = logging.getLogger(__name__)

TIMED_OUT = "This generation ran past the time limit and was stopped. Try again."
STALLED = "The engine stopped answering during this generation, so it was stopped. Try again."
# How long an aborted request's stream may stay silent before the run stops waiting for its end.
ABORT_WAIT_SECONDS = 5.0
NOT_STORED = "This generation failed inside the server; the text so far is kept. Try again."


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
    try:
        request = generation_request(generation)
        if request is not None:
            generation_stream(generation, request, engine=engine)
    except Exception:
        # Past the stream's own guard (the request could not be built, say): still end the row.
        log.exception("generation %s failed before it streamed", generation.pk)
        row_fail(generation, None, error=NOT_STORED)


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
    generation: Generation,
    request: GenerationRequest,
    *,
    engine: Engine | None = None,
    drafts: int | None = None,
) -> None:
    """Stream a claimed generation's request on the engine and store how it ended. Whatever
    happens, the row ends (failed, with the text so far, if nothing better) and its watchers
    are sent the final message. `drafts`: how many a first ui turn writes, the streamed one
    included (candidates.py); None: as the turn asked (its options' `drafts`, else one)."""
    # Checked when the request was built (`generation_request`); a pure, cheap re-read.
    basis = basis_of(generation)
    batcher = Batcher(generation, settings.MACARON_BATCH_SECONDS, basis=basis)
    candidates = None
    try:
        engine = engine or hosting.current_engine()
        candidates = _candidates(generation, request, basis, engine, drafts)
        finish_reason, error = _stream(engine, request, batcher, candidates)
        if candidates is not None and finish_reason == "stop" and not error:
            _keep_best(batcher, candidates, request)
    except Exception:
        # The text so far is in `batcher.progress`; the final write stores it. No flush here:
        # a failing flush (a channel-layer blip) is what may have brought us here. The
        # exception's text stays in the log: it can hold paths and the engine's internals.
        log.exception("generation %s failed", generation.pk)
        finish_reason, error = "error", engine_failed(generation.pk)
    finally:
        if candidates is not None:
            candidates.abort()
    _finish(batcher, finish_reason=finish_reason, error=error)


def _candidates(
    generation: Generation,
    request: GenerationRequest,
    basis: Basis | None,
    engine: Engine,
    drafts: int | None,
) -> Candidates | None:
    """Sampled drafts beside the streamed one, for a first ui turn from the studio."""
    count = int(generation.options.get("drafts", 1) if drafts is None else drafts) - 1
    studio_turn = generation.structured and not generation.messages and basis is None
    return Candidates(engine, request, count) if studio_turn and count > 0 else None


def _keep_best(batcher: Batcher, candidates: Candidates, request: GenerationRequest) -> None:
    """The streamed text replaced by a sampled draft that shows more of the request. Watchers
    hear how many drafts are still being written, then which one was kept; a Stop meanwhile
    aborts them all and keeps the streamed text."""
    generation = batcher.generation
    count = len(candidates.drafts) + 1
    deadline = candidates.deadline(float(settings.MACARON_GENERATION_TIME_LIMIT_SECONDS))
    if writing := candidates.writing():
        wait_s = round(max(0.0, deadline - time.monotonic()), 1)
        until = timezone.now() + datetime.timedelta(seconds=wait_s)
        # On the row too: a page loaded while the drafts are compared reads it from there.
        batcher.row.write(
            comparing={"drafts": count, "writing": writing, "until": until.isoformat()}
        )
        batcher.announce(messages.GENERATION_DRAFTS, drafts=count, writing=writing, wait_s=wait_s)
    ended = candidates.ended(deadline, stopped=lambda: not batcher.row.check())
    if batcher.cancelled:
        return
    kept = kept_draft(generation.prompt, batcher.progress.text, ended, request.json_schema)
    log.info(
        "generation %s: %d of %d drafts ended; kept %s",
        generation.pk,
        len(ended),
        len(candidates.drafts),
        kept.request_id if kept else "the streamed one",
    )
    if kept is not None:
        batcher.progress.text, batcher.progress.tokens = kept.text, kept.tokens
    batcher.announce(
        messages.GENERATION_DRAFTS, drafts=count, writing=0, kept=kept.number if kept else 0
    )


def _stream(
    engine: Engine,
    request: GenerationRequest,
    batcher: Batcher,
    candidates: Candidates | None = None,
) -> tuple[str, str]:
    """Feed the engine's deltas to `batcher` until the stream ends, aborting it (and its
    `candidates`) on a cancellation, past the time limit, or when no delta came for the stall
    limit; returns how the run ended, as (finish reason, error)."""
    generation_id = batcher.generation.pk
    stall_seconds = float(settings.MACARON_GENERATION_STALL_SECONDS)
    deadline = time.monotonic() + settings.MACARON_GENERATION_TIME_LIMIT_SECONDS
    quiet_since = time.monotonic()  # the last delta, or the abort
    finish_reason = ""
    aborted = timed_out = stalled = False
    tick = min(1.0, stall_seconds / 4)
    for delta in deltas_watched(engine.stream(request), tick_seconds=tick):
        now = time.monotonic()
        if delta is None:
            patience = min(stall_seconds, ABORT_WAIT_SECONDS) if aborted else stall_seconds
            stalled = now - quiet_since >= patience
            batcher.row.check()  # a Stop is noticed while the engine is silent too
        else:
            quiet_since = now
            batcher.add(delta)
            finish_reason = delta.finish_reason or finish_reason
        timed_out = timed_out or now > deadline
        if (batcher.cancelled or timed_out or stalled) and not aborted:
            # The engine ends the stream with a last "abort" delta, which frees the slot.
            engine.abort(request.request_id)
            if candidates is not None:
                candidates.abort()
            aborted, quiet_since = True, now
        if stalled:  # nothing came, not even the abort's last delta: stop waiting for it
            break
    batcher.flush()
    tokens = batcher.progress.tokens
    if batcher.cancelled:
        log.info("generation %s cancelled after %d tokens", generation_id, tokens)
        return "cancelled", ""
    if timed_out:
        log.warning("generation %s timed out after %d tokens", generation_id, tokens)
        return "error", TIMED_OUT
    if stalled:
        log.warning("generation %s stalled after %d tokens", generation_id, tokens)
        return "error", STALLED
    return finish_reason or "stop", ""


def _finish(batcher: Batcher, *, finish_reason: str, error: str) -> None:
    """Store how the run ended; if that fails (a final view the database refuses, a lost
    connection), fail the row with the text so far, so it never stays running."""
    try:
        row_finish(
            batcher.generation,
            batcher.progress,
            finish_reason=finish_reason,
            error=error,
            basis=batcher.basis,
            tables=batcher.tables,
        )
    except Exception:
        log.exception("generation %s: storing its end failed; failing it", batcher.generation.pk)
        row_fail(batcher.generation, batcher.progress, error=error or NOT_STORED)


def _engine_request(
    generation: Generation, resolved: ResolvedExpert, basis: Basis | None
) -> GenerationRequest:
    tables = _query_tables(generation)
    adapter = resolved.adapter
    if tables:
        root = EngineSettings.from_env().adapter_root
        adapter = adapter_over_datasets(resolved.expert.name, adapter, root)
    if basis is not None:  # a studio refinement: the base spec, then the instruction
        return refine_request_for(
            request_id=str(generation.pk),
            expert=resolved.expert,
            first_prompt=_with_profiles(generation, basis.first_prompt),
            spec=basis.spec,
            instruction=generation.prompt,
            max_tokens=_max_tokens(resolved.expert.structured),
            max_spec_chars=settings.MACARON_REFINE_SPEC_MAX_CHARS,
            adapter=adapter,
            tables=tables,
        )
    if not generation.messages:  # a studio turn: one prompt
        return request_for(
            request_id=str(generation.pk),
            expert=resolved.expert,
            prompt=_with_profiles(generation, generation.prompt),
            max_tokens=_max_tokens(resolved.expert.structured),
            adapter=adapter,
            tables=tables,
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
        seed=options.get("seed"),
        stop=tuple(options.get("stop") or ()),
        tools=tuple(options["tools"]) if options.get("tools") else None,
    )


def _with_profiles(generation: Generation, prompt: str) -> str:
    """A studio ui prompt as the expert sees it: after its project's datasets' profiles (their
    columns, types and ranges; never their rows), which its queries may then name."""
    if not (generation.structured and generation.project is not None):
        return prompt
    return project_prompt_with_tables(generation.project, prompt)


def _query_tables(generation: Generation) -> list[Table]:
    """The studio project's datasets a spec may query, their rows unread (none: no query is
    decoded)."""
    project = generation.project if generation.structured else None
    return [] if project is None else list(project_tables(project).values())


def _max_tokens(structured: bool) -> int:
    if structured:
        return int(settings.MACARON_UI_MAX_TOKENS)
    return int(settings.MACARON_TEXT_MAX_TOKENS)
