"""The owner's JSON endpoints for a project's published widgets: list, publish, change allowed
origins, unpublish. Same rules as the history endpoints (studio/web/projects_api.py): signed-in
owners only, 401 for visitors, the same 404 for anyone else's project, CSRF on POSTs."""

from __future__ import annotations

import uuid
from typing import Any

from django.http import HttpRequest
from django.views.decorators.http import require_http_methods, require_POST

from studio.errors import InvalidRequest
from studio.models import Project
from studio.selectors import widget_of_project, widget_summary, widgets_of_project
from studio.services.widgets import widget_publish, widget_unpublish, widget_update
from studio.web.projects_api import json_body, owned_project, signed_in_json


def _base_url(request: HttpRequest) -> str:
    return f"{request.scheme}://{request.get_host()}"


def _listing(request: HttpRequest, project: Project) -> dict[str, Any]:
    base = _base_url(request)
    return {
        "widgets": [widget_summary(w, base_url=base) for w in widgets_of_project(project=project)]
    }


@require_http_methods(["GET", "POST"])
@signed_in_json
def widgets(request: HttpRequest, project_id: uuid.UUID) -> dict[str, Any]:
    """GET: every widget of the project. POST `{"version": id or "latest", "origins": [...],
    "buttons": [...]}`: publish one; answers it as `widget`, with the new listing."""
    project = owned_project(request, project_id)
    if request.method == "GET":
        return _listing(request, project)
    body = json_body(request)
    version = body.get("version", "latest")
    version_id = None if version in (None, "", "latest") else _version_id(version)
    made = widget_publish(
        project=project,
        version_id=version_id,
        allowed_origins=body.get("origins", []),
        event_buttons=body.get("buttons", []),
        published_by=request.user,
    )
    return {
        "widget": widget_summary(made, base_url=_base_url(request)),
        **_listing(request, project),
    }


def _version_id(value: object) -> uuid.UUID:
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise InvalidRequest(
            "bad_request", "'version' is a version id or \"latest\".", param="version"
        ) from None


@require_POST
@signed_in_json
def widget_unpublished(
    request: HttpRequest, project_id: uuid.UUID, public_id: str
) -> dict[str, Any]:
    project = owned_project(request, project_id)
    widget = widget_unpublish(widget=widget_of_project(project=project, public_id=public_id))
    return {"widget": widget_summary(widget, base_url=_base_url(request))}


@require_http_methods(["GET", "POST"])
@signed_in_json
def widget_detail(request: HttpRequest, project_id: uuid.UUID, public_id: str) -> dict[str, Any]:
    """GET: one widget. POST `{"origins": [...], "buttons": [...]}` (either may be left out)
    changes where it may be framed and which buttons' clicks its host hears."""
    project = owned_project(request, project_id)
    widget = widget_of_project(project=project, public_id=public_id)
    if request.method == "POST":
        body = json_body(request)
        widget = widget_update(
            widget=widget, allowed_origins=body.get("origins"), event_buttons=body.get("buttons")
        )
    return {"widget": widget_summary(widget, base_url=_base_url(request))}
