"""HTTP views: a project's studio page (its owner's alone), a generation's snapshot, and a
health check. Thin by design."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

import ui4a
from studio.errors import InvalidRequest
from studio.selectors import (
    experts_list,
    generation_payload,
    generation_snapshot,
    project_latest_generation,
    project_of_user,
)


def _studio(
    request: HttpRequest, *, project_id: str, current: dict[str, Any] | None
) -> HttpResponse:
    spec = None
    if current and current.get("status") == "done":
        spec = current.get("spec")
    context = {
        "project_id": project_id,
        "current": current,
        "experts": experts_list(),
        "view_document": ui4a.render_document(spec),
    }
    return render(request, "studio/index.html", context)


@login_required
def studio_project(request: HttpRequest, project_id: uuid.UUID) -> HttpResponse:
    project = project_of_user(user=request.user, project_id=project_id)
    if project is None:
        raise Http404("No such project")
    latest = project_latest_generation(project=project)
    current = None
    if latest is not None:
        current = generation_payload(latest)
        current["spec"] = latest.spec
    return _studio(request, project_id=str(project.id), current=current)


def generation_detail(request: HttpRequest, generation_id: uuid.UUID) -> JsonResponse:
    try:
        return JsonResponse(generation_snapshot(generation_id=generation_id))
    except InvalidRequest as exc:
        return JsonResponse({"error": {"code": exc.code, "message": exc.message}}, status=404)


def health(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"status": "ok"})
