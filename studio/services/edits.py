"""Changing a project's history by hand: edits, undo and redo, revert, and fork.

Each change runs in one transaction on the locked project row, so two tabs cannot both build
on the same version, and nothing is half-written. Once it commits, the project's channel
group hears `project.changed`, so every open tab follows.
"""

from __future__ import annotations

import copy
import logging
import uuid
from typing import Any

from django.db import transaction

from studio import messages
from studio.errors import PROJECT_GONE, InvalidRequest, NotFound
from studio.models import Project, Version
from studio.selectors import project_history, version_can_undo, version_of_project
from studio.services.broadcast import group_send
from studio.services.versions import version_add
from ui4a.edit import EditRefused, apply_edit

logger = logging.getLogger(__name__)

PROJECT_NAME_MAX = 120  # Project.name's max_length


class Conflict(InvalidRequest):
    """The project is not in the state the request assumed (it moved on, nothing to undo)."""


def edit_apply(*, project: Project, base_id: uuid.UUID, op: object, author: Any) -> Version:
    """A new version: the current one with `op` applied. `base_id` is the version the client
    edited; if the project has moved on since, the edit is refused as stale."""
    with transaction.atomic():
        locked = _locked(project)
        base = version_of_project(project=locked, version_id=base_id)
        _require_current(locked, base)
        try:
            edited = apply_edit(base.spec, op)
        except EditRefused as exc:
            raise InvalidRequest("invalid_edit", exc.message, param=exc.path or None) from None
        version = version_add(
            project=locked,
            spec=edited.spec,
            kind=Version.Kind.EDITED,
            label=edited.label,
            parent=base,
            author=author,
        )
    _announce(locked)
    return version


def edit_undo(*, project: Project, base_id: uuid.UUID | None = None) -> Project:
    """Step back over the current version when it is a manual edit: its parent becomes
    current, and the undone version waits on the redo list."""
    with transaction.atomic():
        locked = _locked(project)
        current = locked.current_version
        if base_id is not None:
            _require_current(locked, version_of_project(project=locked, version_id=base_id))
        if current is None or not version_can_undo(current):
            what = f"version {current.number} is {current.kind}" if current else "nothing is"
            raise Conflict(
                "nothing_to_undo", f"Nothing to undo: only manual edits can be undone, and {what}."
            )
        locked.current_version = current.parent
        locked.redo = [*locked.redo, str(current.id)]
        locked.save(update_fields=["current_version", "redo", "updated_at"])
    _announce(locked)
    return locked


def edit_redo(*, project: Project, base_id: uuid.UUID | None = None) -> Project:
    """Make the last undone edit current again."""
    with transaction.atomic():
        locked = _locked(project)
        if base_id is not None:
            _require_current(locked, version_of_project(project=locked, version_id=base_id))
        if not locked.redo:
            raise Conflict("nothing_to_redo", "Nothing to redo.")
        undone = locked.versions.filter(pk=locked.redo[-1]).first()
        # Undo pushed it while its parent was current, and any new version empties the list;
        # a mismatch means the list is from another history and must not be replayed.
        if undone is None or undone.parent_id != locked.current_version_id:
            raise Conflict("nothing_to_redo", "Nothing to redo: the project has moved on.")
        locked.current_version = undone
        locked.redo = locked.redo[:-1]
        locked.save(update_fields=["current_version", "redo", "updated_at"])
    _announce(locked)
    return locked


def version_revert(*, project: Project, version_id: uuid.UUID, author: Any) -> Version:
    """A new version equal to an older one, on top of the current one."""
    with transaction.atomic():
        locked = _locked(project)
        target = version_of_project(project=locked, version_id=version_id)
        if locked.current_version_id == target.id:
            raise Conflict(
                "already_current", f"Version {target.number} is already the current version."
            )
        version = version_add(
            project=locked,
            spec=copy.deepcopy(target.spec),
            kind=Version.Kind.REVERTED,
            label=f"reverted to version {target.number}",
            parent=locked.current_version,
            author=author,
        )
    _announce(locked)
    return version


def version_fork(*, project: Project, version_id: uuid.UUID, author: Any) -> Project:
    """A new project of the same owner whose version 1 is a copy of this version."""
    with transaction.atomic():
        source = version_of_project(project=project, version_id=version_id)
        suffix = f" (fork of v{source.number})"
        fork = Project.objects.create(
            owner=project.owner, name=project.name[: PROJECT_NAME_MAX - len(suffix)] + suffix
        )
        version_add(
            project=fork,
            spec=copy.deepcopy(source.spec),
            kind=Version.Kind.FORKED,
            label=f"forked from version {source.number} of {project.name}",
            author=author,
        )
    return fork


def _locked(project: Project) -> Project:
    """The project's row, locked for this transaction; gone means deleted in another tab."""
    locked = Project.objects.select_for_update().filter(pk=project.pk).first()
    if locked is None:
        raise NotFound("unknown_project", PROJECT_GONE)
    return locked


def _require_current(project: Project, version: Version) -> None:
    current = project.current_version
    if current is None or current.id != version.id:
        now = f"version {current.number}" if current else "no version"
        raise Conflict(
            "stale_version",
            f"This project has changed since version {version.number}: it is now at {now}. "
            "Nothing was changed; reload to continue from there.",
        )


def _announce(project: Project) -> None:
    """Tell the project's open tabs where it stands, once the change is committed."""
    message = messages.project_changed(project=project.id, **project_history(project=project))

    def send() -> None:
        try:
            group_send(messages.project_group(project.id), message)
        except Exception:
            # The change is stored and the caller gets it; only other tabs miss this nudge,
            # and they resync on their next request.
            logger.warning(
                "could not announce %s of project %s",
                messages.PROJECT_CHANGED,
                project.id,
                exc_info=True,
            )

    transaction.on_commit(send)
