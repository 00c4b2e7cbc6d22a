"""HTTP views: a project's studio page (its owner's alone), a generation's snapshot, and a
health check. Thin by design."""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

import ui4a
from studio.errors import InvalidRequest
from studio.models import Project
from studio.rendered_views import project_document
from studio.selectors import (
    experts_list,
    generation_payload,
    generation_snapshot,
    project_latest_generation,
    project_of_user,
)
from studio.web import importmap
from ui4a.theme import THEME_FIELDS


def _studio(
    request: HttpRequest, *, project: Project | None, generation: dict[str, Any] | None
) -> HttpResponse:
    """The studio page. The preview starts from the current version (its first paint needs no
    round trip); the page's script fetches the timeline and catalog, and follows `generation`
    when it is still running."""
    version = project.current_version if project else None
    context = {
        "project": {"id": str(project.id), "name": project.name} if project else None,
        "version": (
            {"id": str(version.id), "number": version.number, "spec": version.spec}
            if version
            else None
        ),
        "generation": generation,
        "experts": experts_list(),
        # The drafts a new ui screen writes when the designer asks for the best of several.
        "ui_drafts": int(settings.MACARON_UI_CANDIDATES),
        "theme_fields": [
            {"name": f.name, "values": list(f.values), "default": f.default} for f in THEME_FIELDS
        ],
        "import_map": importmap.import_map(),
        "view_document": (
            project_document(project, version.spec if version else None)
            if project
            else ui4a.render_document(None)
        ),
    }
    return render(request, "studio/index.html", context)


@login_required
def studio_project(request: HttpRequest, project_id: uuid.UUID) -> HttpResponse:
    project = project_of_user(user=request.user, project_id=project_id)
    if project is None:
        raise Http404("No such project")
    latest = project_latest_generation(project=project)
    return _studio(
        request,
        project=project,
        generation=generation_payload(latest) if latest is not None else None,
    )


def generation_detail(request: HttpRequest, generation_id: uuid.UUID) -> JsonResponse:
    # Only the owner of the generation's project sees it; anyone else, signed in or not, gets
    # the same not-found as for an id that never existed.
    try:
        return JsonResponse(generation_snapshot(generation_id=generation_id, user=request.user))
    except InvalidRequest as exc:
        return JsonResponse({"error": {"code": exc.code, "message": exc.message}}, status=404)


def health(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})
