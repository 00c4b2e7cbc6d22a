"""Reads for views and consumers."""

from __future__ import annotations

import uuid

from studio.models import Generation, Project


def project_get(*, project_id: uuid.UUID) -> Project | None:
    return Project.objects.filter(pk=project_id).first()


def project_latest_generation(*, project: Project) -> Generation | None:
    return project.generations.order_by("-queued_at").first()
