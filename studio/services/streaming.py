"""Runs one stored generation on the engine and streams it to the project's group in batches.

Batches go out at most every `MACARON_BATCH_SECONDS` (the first one at once, for a fast first
render), each with a sequence number. Every batch also writes the text so far to the row, so a
client that sees a gap can fetch the whole text; the final text always ends up on the row.

That write is also how a cancellation arrives: it only touches a running row, so when it finds
none, the generation was cancelled (`generation_cancel`) and the engine request is aborted.
"""

from __future__ import annotations

import logging
import time
import uuid
from typing import Any

from django.conf import settings
from django.utils import timezone

from inference import hosting
from inference.prompts import chat_request_for, request_for
from inference.protocol import Delta, Engine, GenerationRequest, Message
from inference.variants import DEFAULT_VARIANT, apply_variant
from studio import messages
from studio.models import Generation
from studio.selectors import ResolvedExpert, expert_resolve
from studio.services.broadcast import group_send
from studio.services.views import finalize_view, view_payload

log = logging.getLogger(__name__)

TIMED_OUT = "This generation ran past the time limit and was stopped. Try again."


class _Batcher:
    """Collects deltas and publishes them as numbered batches."""

    def __init__(self, generation: Generation, interval: float) -> None:
        self.generation = generation
        self.group = watchers_group(generation)
        self.interval = interval
        self.text = ""
        self.pending = ""
        self.tokens = 0
        self.prompt_tokens = 0
        self.seq = 0
        self.last_flush = 0.0
        self.first_token_at: Any = None
        self.adapter_sha256 = ""
        self.adapter_load_ms: float | None = None
        # Engine time up to the newest delta: lets clients tell our overhead from the engine's.
        self.engine_started = time.monotonic()
        self.engine_elapsed = 0.0
        self.cancelled = False

    def add(self, delta: Delta) -> None:
        self.engine_elapsed = time.monotonic() - self.engine_started
        if delta.adapter_load_ms is not None:
            self.adapter_load_ms = delta.adapter_load_ms
        self.text += delta.text
        self.pending += delta.text
        self.tokens = delta.tokens
        self.prompt_tokens = delta.prompt_tokens or self.prompt_tokens
        if self.first_token_at is None and delta.tokens:
            self.first_token_at = timezone.now()
            self._still_running(first_token_at=self.first_token_at)
            self.flush()
        elif time.monotonic() - self.last_flush >= self.interval:
            self.flush()

    def flush(self) -> None:
        if not self.pending or self.cancelled:
            return
        if not self._still_running(text=self.text, seq=self.seq + 1, tokens=self.tokens):
            return
        self.seq += 1
        message: dict[str, Any] = {
            "type": messages.GENERATION_DELTA,
            "generation": str(self.generation.pk),
            "seq": self.seq,
            "delta": self.pending,
            "tokens": self.tokens,
        }
        if self.generation.structured and self.generation.project_id:
            # Only the studio draws partial views; API callers get the text alone.
            message.update(view_payload(self.text))
        message["sent_at"] = time.time()  # lets clients measure delivery; wall clock on purpose
        message["engine_s"] = round(self.engine_elapsed, 4)
        group_send(self.group, message)
        self.pending = ""
        self.last_flush = time.monotonic()

    def _still_running(self, **fields: Any) -> bool:
        """Write to the row if it is still running; otherwise note the cancellation."""
        updated = Generation.objects.filter(
            pk=self.generation.pk, status=Generation.Status.RUNNING
        ).update(**fields)
        self.cancelled = self.cancelled or not updated
        return bool(updated)


def watchers_group(generation: Generation) -> str:
    """Studio generations stream to their project's group, API generations to their own."""
    if generation.project_id:
        return messages.project_group(generation.project_id)
    return messages.generation_group(generation.pk)


def generation_run(
    *,
    generation_id: uuid.UUID | str,
    engine: Engine | None = None,
    variant: str = DEFAULT_VARIANT,
    worker: str = "",
) -> None:
    """Run a queued generation to the end; a generation runs at most once. `worker` names the
    Celery worker claiming it, for the orphan sweep (services/orphans.py). `variant` is for
    UI4A-Bench only (inference/variants.py): the studio and the API never pass it."""
    claimed = Generation.objects.filter(pk=generation_id, status=Generation.Status.QUEUED).update(
        status=Generation.Status.RUNNING, started_at=timezone.now(), worker=worker
    )
    if not claimed:
        log.warning("generation %s is not queued; not running it again", generation_id)
        return
    generation = Generation.objects.get(pk=generation_id)
    engine = engine or hosting.current_engine()
    batcher = _Batcher(generation, settings.MACARON_BATCH_SECONDS)
    # Resolved now, not when queued: a version registered meanwhile is the one that answers.
    resolved = expert_resolve(name=generation.expert)
    if resolved is None:
        error = f"The expert {generation.expert!r} was unregistered before this request ran."
        _finish(generation, batcher, finish_reason="error", error=error)
        return
    if resolved.adapter is not None:
        batcher.adapter_sha256 = resolved.adapter.sha256
    request = apply_variant(_engine_request(generation, resolved), variant)
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
    except Exception as exc:
        log.exception("generation %s failed", generation_id)
        batcher.flush()
        _finish(generation, batcher, finish_reason="error", error=f"The engine failed: {exc}")
        return
    if timed_out and not batcher.cancelled:
        log.warning("generation %s timed out after %d tokens", generation_id, batcher.tokens)
        _finish(generation, batcher, finish_reason="error", error=TIMED_OUT)
        return
    if batcher.cancelled:
        log.info("generation %s cancelled after %d tokens", generation_id, batcher.tokens)
        _finish(generation, batcher, finish_reason="cancelled", error="")
        return
    _finish(generation, batcher, finish_reason=finish_reason or "stop", error="")


def generation_fail(*, generation_id: uuid.UUID | str, error: str) -> None:
    """Mark a generation that never reached the engine as failed, and tell its watchers."""
    generation = Generation.objects.get(pk=generation_id)
    _finish(generation, _Batcher(generation, 0), finish_reason="error", error=error)


def _engine_request(generation: Generation, resolved: ResolvedExpert) -> GenerationRequest:
    if not generation.messages:  # a studio turn: one prompt
        return request_for(
            request_id=str(generation.pk),
            expert=resolved.expert,
            prompt=generation.prompt,
            max_tokens=_max_tokens(resolved.expert.structured),
            adapter=resolved.adapter,
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


def _max_tokens(structured: bool) -> int:
    if structured:
        return int(settings.MACARON_UI_MAX_TOKENS)
    return int(settings.MACARON_TEXT_MAX_TOKENS)


def _finish(generation: Generation, batcher: _Batcher, *, finish_reason: str, error: str) -> None:
    generation.text = batcher.text
    generation.seq = batcher.seq
    generation.tokens = batcher.tokens
    generation.prompt_tokens = batcher.prompt_tokens
    generation.first_token_at = batcher.first_token_at
    generation.adapter_sha256 = batcher.adapter_sha256
    generation.adapter_load_ms = batcher.adapter_load_ms
    generation.finish_reason = finish_reason
    generation.finished_at = timezone.now()
    generation.status = Generation.Status.FAILED if error else Generation.Status.DONE
    generation.error = error
    if finish_reason == "cancelled":
        generation.status = Generation.Status.CANCELLED
    elif generation.structured and not error:
        final = finalize_view(batcher.text, finish_reason=finish_reason)
        generation.spec = final.spec
        generation.problems = final.problems
        generation.error = final.error
        if final.spec is None:
            generation.status = Generation.Status.FAILED
    generation.save()
    announce_done(generation)


def announce_done(generation: Generation) -> None:
    """Send a finished generation's final message, with everything a client needs to draw it."""
    from studio.services.generations import generation_payload

    group_send(
        watchers_group(generation),
        {"type": messages.GENERATION_DONE, **generation_payload(generation)},
    )
