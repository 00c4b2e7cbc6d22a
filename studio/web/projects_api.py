"""The studio's JSON endpoints for a project's history: list and open versions, diff two, edit,
undo, redo, revert and fork; and the component catalog the inspector edits with.

Signed-in users only. Scripts call these, so a visitor who is not signed in gets 401 with a
JSON error rather than a redirect to the sign-in page. Another user's project is a 404, the
same as one that does not exist. POSTs go through Django's CSRF check (send X-CSRFToken).
Errors are `{"error": {"code", "message"}}` (plus "path", a JSON pointer, for a refused edit).
"""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec

from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from studio.errors import (
    PROJECT_GONE,
    EngineFailed,
    Gone,
    InvalidRequest,
    NotAuthenticated,
    NotFound,
    RateLimited,
    TooLarge,
    Unavailable,
)
from studio.models import Project
from studio.selectors import (
    component_catalog,
    project_history,
    project_of_user,
    project_versions,
    version_detail,
    version_of_project,
    versions_diff,
)
from studio.services.edits import (
    Conflict,
    edit_apply,
    edit_redo,
    edit_undo,
    version_fork,
    version_revert,
)
from studio.web.request_body import body_within

# An edit is one small operation (ui4a.edit caps it at 4 KiB); anything near this is not one.
MAX_BODY_BYTES = 16 * 1024
STATUSES: tuple[tuple[type[InvalidRequest], int], ...] = (
    (NotAuthenticated, 401),
    (NotFound, 404),
    (Conflict, 409),
    (TooLarge, 413),
    (Gone, 410),
    (RateLimited, 429),
    (EngineFailed, 502),
    (Unavailable, 503),
    (InvalidRequest, 400),
)

P = ParamSpec("P")


def error_json(exc: InvalidRequest) -> JsonResponse:
    status = next(code for kind, code in STATUSES if isinstance(exc, kind))
    error = {"code": exc.code, "message": exc.message}
    if exc.param:
        error["path"] = exc.param
    response = JsonResponse({"error": error}, status=status)
    if isinstance(exc, RateLimited):
        response["Retry-After"] = str(exc.retry_after)
    return response


def signed_in_json(
    view: Callable[Concatenate[HttpRequest, P], dict[str, Any]],
) -> Callable[Concatenate[HttpRequest, P], JsonResponse]:
    """Answers 401 to visitors, and any refusal as its JSON error."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, /, *args: P.args, **kwargs: P.kwargs) -> JsonResponse:
        try:
            if not request.user.is_authenticated:
                raise NotAuthenticated("not_signed_in", "Sign in to use the studio.")
            return JsonResponse(view(request, *args, **kwargs))
        except InvalidRequest as exc:
            return error_json(exc)

    return wrapper


def owned_project(request: HttpRequest, project_id: uuid.UUID) -> Project:
    project = project_of_user(user=request.user, project_id=project_id)
    if project is None:
        raise NotFound("unknown_project", PROJECT_GONE)
    return project


def json_body(request: HttpRequest) -> dict[str, Any]:
    body = body_within(request, MAX_BODY_BYTES)
    if not body.strip():
        return {}
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # RecursionError: nested past the parser's stack
        raise InvalidRequest("bad_request", "The request body is not valid JSON.") from None
    if not isinstance(data, dict):
        raise InvalidRequest("bad_request", "The request body must be a JSON object.")
    return data


def _version_id(value: object, name: str, *, required: bool) -> uuid.UUID | None:
    if value in (None, ""):
        if required:
            raise InvalidRequest("bad_request", f"{name!r} is required: a version id.")
        return None
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise InvalidRequest("bad_request", f"{name!r} is not a version id.") from None


def _required_id(value: object, name: str) -> uuid.UUID:
    found = _version_id(value, name, required=True)
    assert found is not None
    return found


def _moved(project: Project) -> dict[str, Any]:
    """The project's history after undo or redo, with the version now current."""
    current = project.current_version
    return {
        **project_history(project=project),
        "version": version_detail(current) if current else None,
    }


@require_GET
@signed_in_json
def versions(request: HttpRequest, project_id: uuid.UUID) -> dict[str, Any]:
    return project_versions(project=owned_project(request, project_id))


@require_GET
@signed_in_json
def version(request: HttpRequest, project_id: uuid.UUID, version_id: uuid.UUID) -> dict[str, Any]:
    project = owned_project(request, project_id)
    return version_detail(version_of_project(project=project, version_id=version_id))


@require_GET
@signed_in_json
def diff(request: HttpRequest, project_id: uuid.UUID) -> dict[str, Any]:
    project = owned_project(request, project_id)
    old = _required_id(request.GET.get("from"), "from")
    new = _required_id(request.GET.get("to"), "to")
    return versions_diff(project=project, from_id=old, to_id=new)


@require_POST
@signed_in_json
def edit(request: HttpRequest, project_id: uuid.UUID) -> dict[str, Any]:
    project = owned_project(request, project_id)
    body = json_body(request)
    base = _required_id(body.get("base"), "base")
    if "op" not in body:
        raise InvalidRequest("bad_request", "'op' is required: the edit to make.")
    made = edit_apply(project=project, base_id=base, op=body["op"], author=request.user)
    return {**version_detail(made), **project_history(project=made.project)}


@require_POST
@signed_in_json
def undo(request: HttpRequest, project_id: uuid.UUID) -> dict[str, Any]:
    return _history_step(request, project_id, edit_undo)


@require_POST
@signed_in_json
def redo(request: HttpRequest, project_id: uuid.UUID) -> dict[str, Any]:
    return _history_step(request, project_id, edit_redo)


def _history_step(
    request: HttpRequest, project_id: uuid.UUID, step: Callable[..., Project]
) -> dict[str, Any]:
    """Undo or redo from the version the tab shows (`base`), so a stale tab is refused."""
    project = owned_project(request, project_id)
    base = _version_id(json_body(request).get("base"), "base", required=False)
    return _moved(step(project=project, base_id=base))


@require_POST
@signed_in_json
def revert(request: HttpRequest, project_id: uuid.UUID, version_id: uuid.UUID) -> dict[str, Any]:
    project = owned_project(request, project_id)
    made = version_revert(project=project, version_id=version_id, author=request.user)
    return {**version_detail(made), **project_history(project=made.project)}


@require_POST
@signed_in_json
def fork(request: HttpRequest, project_id: uuid.UUID, version_id: uuid.UUID) -> dict[str, Any]:
    project = owned_project(request, project_id)
    made = version_fork(project=project, version_id=version_id, author=request.user)
    return {"project": str(made.id), "url": reverse("project", args=[made.id])}


@require_GET
@signed_in_json
def catalog(request: HttpRequest) -> dict[str, Any]:
    return component_catalog()
