"""The running generation's row: the worker's writes to it while it streams, how a cancellation
arrives, and the final write when the run ends.

Every write only touches a running row, so a write that finds none means the generation was
cancelled (`generation_cancel`): the run then aborts its engine request.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from studio.models import Generation
from studio.services.broadcast import announce_done
from studio.worker.partials import final_view


@dataclass
class Progress:
    """What the run has produced so far, as the row stores it."""

    text: str = ""
    seq: int = 0
    tokens: int = 0
    prompt_tokens: int = 0
    first_token_at: datetime | None = None
    adapter_sha256: str = ""
    adapter_load_ms: float | None = None


class RunningRow:
    def __init__(self, generation: Generation) -> None:
        self.generation = generation
        self.cancelled = False

    def write(self, **fields: Any) -> bool:
        """Write to the row if it is still running; otherwise note the cancellation."""
        updated = Generation.objects.filter(
            pk=self.generation.pk, status=Generation.Status.RUNNING
        ).update(**fields)
        self.cancelled = self.cancelled or not updated
        return bool(updated)


def row_finish(
    generation: Generation, progress: Progress, *, finish_reason: str, error: str
) -> None:
    """Store how the run ended, with the final view of a structured one, and tell watchers."""
    generation.text = progress.text
    generation.seq = progress.seq
    generation.tokens = progress.tokens
    generation.prompt_tokens = progress.prompt_tokens
    generation.first_token_at = progress.first_token_at
    generation.adapter_sha256 = progress.adapter_sha256
    generation.adapter_load_ms = progress.adapter_load_ms
    generation.finish_reason = finish_reason
    generation.finished_at = timezone.now()
    generation.status = Generation.Status.FAILED if error else Generation.Status.DONE
    generation.error = error
    if finish_reason == "cancelled":
        generation.status = Generation.Status.CANCELLED
    elif generation.structured and not error:
        final = final_view(progress.text, finish_reason=finish_reason)
        generation.spec = final.spec
        generation.problems = final.problems
        generation.error = final.error
        if final.spec is None:
            generation.status = Generation.Status.FAILED
    generation.save()
    announce_done(generation)
