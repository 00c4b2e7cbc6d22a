"""The running generation's row: the worker's writes to it while it streams, how a cancellation
arrives, and the final write when the run ends, with the version a finished ui generation adds.

Every write only touches a running row, so a write that finds none means the generation was
ended elsewhere (`generation_cancel`, the orphan sweep, or its project deleted): the run then
aborts its engine request, keeps what had streamed, and leaves the announcing to whoever ended
it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from studio.models import Generation, Project, Version
from studio.services.generations import generation_ended
from studio.services.versions import version_add
from studio.worker.partials import final_view
from studio.worker.refinement import Basis
from ui4a.tables import Table


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

    def fields(self) -> dict[str, Any]:
        return {
            "text": self.text,
            "seq": self.seq,
            "tokens": self.tokens,
            "prompt_tokens": self.prompt_tokens,
            "first_token_at": self.first_token_at,
            "adapter_sha256": self.adapter_sha256,
            "adapter_load_ms": self.adapter_load_ms,
        }


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

    def check(self) -> bool:
        """Whether the row is still running, noting a cancellation; for when no write is due
        (an engine that sends nothing would otherwise never learn of a Stop)."""
        running = Generation.objects.filter(
            pk=self.generation.pk, status=Generation.Status.RUNNING
        ).exists()
        self.cancelled = self.cancelled or not running
        return running


def row_finish(
    generation: Generation,
    progress: Progress,
    *,
    finish_reason: str,
    error: str,
    basis: Basis | None = None,
    tables: Mapping[str, Table] | None = None,
) -> None:
    """Store how the run ended, with the final view of a structured one (its queries grounded
    in the project's `tables`) and the version it adds, and tell watchers; or, if the row was
    ended elsewhere, only keep what streamed."""
    fields: dict[str, Any] = {
        **progress.fields(),
        "finish_reason": finish_reason,
        "finished_at": timezone.now(),
        "status": Generation.Status.FAILED if error else Generation.Status.DONE,
        "error": error,
    }
    if finish_reason == "cancelled":
        fields["status"] = Generation.Status.CANCELLED
    elif generation.structured and not error:
        final = final_view(progress.text, finish_reason=finish_reason, basis=basis, tables=tables)
        fields.update(spec=final.spec, problems=final.problems, error=final.error)
        if final.spec is None:
            fields["status"] = Generation.Status.FAILED
    with transaction.atomic():
        running = Generation.objects.filter(pk=generation.pk, status=Generation.Status.RUNNING)
        if not running.update(**fields):
            Generation.objects.filter(pk=generation.pk).update(**progress.fields())
            return
        for name, value in fields.items():
            setattr(generation, name, value)
        version = _version_of(generation, basis)
    generation_ended(generation, version=version)


def row_fail(generation: Generation, progress: Progress | None, *, error: str) -> bool:
    """Fail a row still running, keeping the text so far (`progress`'s, or else the row's own,
    written with the last batch), and tell watchers; False if it had ended already. The last
    resort when storing the run's end normally failed."""
    fields: dict[str, Any] = progress.fields() if progress is not None else {}
    fields.update(
        status=Generation.Status.FAILED,
        finish_reason="error",
        error=error,
        finished_at=timezone.now(),
    )
    running = Generation.objects.filter(pk=generation.pk, status=Generation.Status.RUNNING)
    if not running.update(**fields):
        return False
    generation_ended(Generation.objects.get(pk=generation.pk))
    return True


def _version_of(generation: Generation, basis: Basis | None) -> Version | None:
    """The version a finished studio ui generation adds to its project: generated from a
    prompt alone, refined from the base version, or targeted at one of its elements."""
    if generation.status != Generation.Status.DONE or generation.spec is None:
        return None
    if generation.project_id is None:  # an API generation
        return None
    project = Project.objects.filter(pk=generation.project_id).select_related("owner").first()
    if project is None:
        return None
    return version_add(
        project=project,
        spec=generation.spec,
        kind=basis.kind if basis is not None else Version.Kind.GENERATED,
        label=generation.prompt,
        parent=basis.version if basis is not None else None,
        generation=generation,
        author=project.owner,
    )
