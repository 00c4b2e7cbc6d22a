"""Projects: a designer's containers of versions. Creating, renaming, duplicating and deleting
them; who may touch which project is the caller's check (`selectors.project_of_user`)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from studio.errors import InvalidRequest
from studio.models import Project, Version
from studio.services.versions import version_add

DEFAULT_NAME = "Untitled project"
NAME_MAX_CHARS = Project._meta.get_field("name").max_length or 120
COPY_SUFFIX = " (copy)"


def project_name_clean(name: Any) -> str:
    """A project name as stored: trimmed, not empty, within the column's length."""
    if not isinstance(name, str):
        raise InvalidRequest("invalid_name", "A project name must be text.", param="name")
    cleaned = " ".join(name.split())  # no line breaks or runs of spaces in a title
    if not cleaned:
        raise InvalidRequest("invalid_name", "Give the project a name.", param="name")
    if len(cleaned) > NAME_MAX_CHARS:
        raise InvalidRequest(
            "invalid_name",
            f"The name has {len(cleaned)} characters; the limit is {NAME_MAX_CHARS}.",
            param="name",
        )
    return cleaned


def project_create(*, owner: Any = None, name: str = DEFAULT_NAME) -> Project:
    """A new, empty project. Ownerless ones (benchmark runs) are opened by nobody."""
    return Project.objects.create(owner=owner, name=project_name_clean(name))


def project_rename(*, project: Project, name: Any) -> Project:
    project.name = project_name_clean(name)
    project.save(update_fields=["name", "updated_at"])
    return project


def project_duplicate(*, project: Project, author: Any = None) -> Project:
    """A new project of the same owner, "<name> (copy)", whose version 1 is the current version
    of `project` (its history stays behind). An empty project duplicates to an empty one."""
    stem = project.name[: NAME_MAX_CHARS - len(COPY_SUFFIX)].rstrip()
    with transaction.atomic():
        copy = Project.objects.create(owner=project.owner, name=f"{stem}{COPY_SUFFIX}")
        current: Version | None = project.current_version
        if current is not None:
            version_add(
                project=copy,
                spec=current.spec,
                kind=Version.Kind.FORKED,
                label=f"duplicated from “{project.name}” version {current.number}",
                author=author,
            )
    return copy


def project_delete(*, project: Project) -> None:
    """Delete the project with its versions and generations, for good. A generation still
    running finds its row gone at its next batch and aborts (`studio.worker.row`)."""
    project.delete()
