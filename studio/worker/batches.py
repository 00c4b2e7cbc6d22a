"""Collects the engine's deltas and sends them to the generation's watchers as numbered batches.

Batches go out at most every `MACARON_BATCH_SECONDS` (the first one at once, for a fast first
render), each with a sequence number. Every batch first writes the text so far to the row, so a
client that sees a gap can fetch the whole text; a write that finds the row cancelled sends
nothing (`studio.worker.row`). A batch the channel layer refuses is not lost: its text goes out
with the next batch, under the same number, and the run goes on.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.utils import timezone

from inference.protocol import Delta
from studio import messages
from studio.models import Generation
from studio.rendered_views import ResolveCache
from studio.services.broadcast import group_send, watchers_group
from studio.worker.partials import partial_view, stream_tables
from studio.worker.refinement import Basis
from studio.worker.row import Progress, RunningRow

log = logging.getLogger(__name__)

# After a batch could not be sent (the channel layer away), how long to hold the next ones.
SEND_RETRY_SECONDS = 1.0


class Batcher:
    def __init__(
        self, generation: Generation, interval: float, *, basis: Basis | None = None
    ) -> None:
        self.generation = generation
        self.basis = basis  # what a refinement revises; its preview shows the whole view
        self.row = RunningRow(generation)
        self.progress = Progress()
        self.group = watchers_group(generation)
        self.interval = interval
        self.pending = ""
        self.last_flush = 0.0
        # Engine time up to the newest delta: lets clients tell our overhead from the engine's.
        self.engine_started = time.monotonic()
        self.engine_elapsed = 0.0
        # The project's datasets, read once per run, and the queries already evaluated: each
        # batch re-renders the whole partial view, but each query runs once.
        self.tables = stream_tables(generation)
        self.resolved: ResolveCache = {}
        self.sends_paused_until = 0.0  # after a send failed (`SEND_RETRY_SECONDS`)

    @property
    def cancelled(self) -> bool:
        return self.row.cancelled

    def add(self, delta: Delta) -> None:
        progress = self.progress
        self.engine_elapsed = time.monotonic() - self.engine_started
        if delta.adapter_load_ms is not None:
            progress.adapter_load_ms = delta.adapter_load_ms
        if delta.adapter_sha256 is not None:
            # The hash the engine checked as it loaded the weights, never the registered one.
            progress.adapter_sha256 = delta.adapter_sha256
        progress.text += delta.text
        self.pending += delta.text
        progress.tokens = delta.tokens
        progress.prompt_tokens = delta.prompt_tokens or progress.prompt_tokens
        if progress.first_token_at is None and delta.tokens:
            progress.first_token_at = timezone.now()
            self.row.write(first_token_at=progress.first_token_at)
            self.flush()
        elif time.monotonic() - self.last_flush >= self.interval:
            self.flush()

    def announce(self, kind: str, **fields: Any) -> None:
        """A message beside the batches (how the drafts stand). It only informs, so one the
        channel layer refuses is dropped, and the run goes on."""
        message = {"type": kind, "generation": str(self.generation.pk), **fields}
        try:
            group_send(self.group, message)
        except Exception:
            log.warning("generation %s: %s not sent", self.generation.pk, kind, exc_info=True)

    def flush(self) -> None:
        progress = self.progress
        if not self.pending or self.cancelled or time.monotonic() < self.sends_paused_until:
            return
        seq = progress.seq + 1
        if not self.row.write(text=progress.text, seq=seq, tokens=progress.tokens):
            return
        message: dict[str, Any] = {
            "type": messages.GENERATION_DELTA,
            "generation": str(self.generation.pk),
            "seq": seq,
            "delta": self.pending,
            "tokens": progress.tokens,
            **partial_view(
                self.generation,
                progress.text,
                self.basis,
                tables=self.tables,
                cache=self.resolved,
            ),
        }
        message["sent_at"] = time.time()  # lets clients measure delivery; wall clock on purpose
        message["engine_s"] = round(self.engine_elapsed, 4)
        try:
            group_send(self.group, message)
        except Exception:
            # The row has the text; the batch goes out with the next one, after a pause that
            # keeps a dead channel layer from slowing the run down at every delta.
            log.warning("generation %s: batch %d not sent", self.generation.pk, seq, exc_info=True)
            self.sends_paused_until = time.monotonic() + SEND_RETRY_SECONDS
            return
        progress.seq = seq
        self.pending = ""
        self.last_flush = time.monotonic()
