"""Projects: the container of a designer's generations."""

from __future__ import annotations

from studio.models import Project


def project_create() -> Project:
    return Project.objects.create()
