"""Adding versions to a project: the one place a project's current version moves forward.

Generations (when they finish), manual edits, reverts and forks all add versions here, so
numbering, the current pointer and the redo list stay consistent whoever writes.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max

from studio.models import Generation, Project, Version


def version_add(
    *,
    project: Project,
    spec: dict[str, Any],
    kind: str,
    label: str,
    parent: Version | None = None,
    generation: Generation | None = None,
    author: Any = None,
) -> Version:
    """Store a new version, make it the project's current one and clear the redo list."""
    with transaction.atomic():
        # Lock the project row so two writers cannot take the same number.
        locked = Project.objects.select_for_update().get(pk=project.pk)
        last = locked.versions.aggregate(n=Max("number"))["n"] or 0
        version = Version.objects.create(
            project=locked,
            number=last + 1,
            kind=kind,
            label=label[:2000],
            spec=spec,
            parent=parent,
            generation=generation,
            author=author,
        )
        locked.current_version = version
        locked.redo = []
        locked.save(update_fields=["current_version", "redo", "updated_at"])
    project.current_version = version
    project.redo = []
    return version
