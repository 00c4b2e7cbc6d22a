"""The projects page and its actions: new, rename, duplicate, delete, and each project's live
thumbnail. Server-rendered forms that work without script; rename, duplicate and delete also
answer JSON to callers that send or accept it (the studio page). Another user's project is a
404, never a 403."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.clickjacking import xframe_options_sameorigin
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from studio.errors import InvalidRequest
from studio.models import Project
from studio.rendered_views import project_document
from studio.selectors import PROJECT_QUERY_MAX_CHARS, project_of_user, projects_of_user
from studio.services.projects import (
    project_create,
    project_delete,
    project_duplicate,
    project_rename,
)
from studio.web.security import view_policy

PAGE_SIZE = 24  # thumbnails are live documents: a page never loads more than this many
JSON_BODY_MAX_BYTES = 4096


def _owned(request: HttpRequest, project_id: uuid.UUID) -> Project:
    project = project_of_user(user=request.user, project_id=project_id)
    if project is None:
        raise Http404("No such project")
    return project


def _wants_json(request: HttpRequest) -> bool:
    return request.content_type == "application/json" or "application/json" in request.headers.get(
        "Accept", ""
    )


def _error(exc: InvalidRequest, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": {"code": exc.code, "message": exc.message}}, status=status)


def _json_body(request: HttpRequest) -> dict[str, Any]:
    if len(request.body) > JSON_BODY_MAX_BYTES:
        raise InvalidRequest("body_too_large", f"The body is over {JSON_BODY_MAX_BYTES} bytes.")
    try:
        body = json.loads(request.body or b"{}")
    except ValueError as exc:
        raise InvalidRequest("invalid_json", f"The body is not JSON: {exc}.") from exc
    except RecursionError:  # nested past the parser's stack
        raise InvalidRequest("invalid_json", "The body is nested too deeply.") from None
    if not isinstance(body, dict):
        raise InvalidRequest("invalid_json", "The body must be a JSON object.")
    return body


def _next(request: HttpRequest, target: str) -> str:
    """Where a form sends the user back to (the projects page with its search); "" unless it
    is a URL of ours."""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return ""


def _back(request: HttpRequest) -> HttpResponse:
    return redirect(_next(request, request.POST.get("next", "")) or reverse("projects"))


@login_required
@require_GET
def projects_page(request: HttpRequest) -> HttpResponse:
    query = " ".join(request.GET.get("q", "").split())[:PROJECT_QUERY_MAX_CHARS]
    projects = projects_of_user(user=request.user, query=query)
    page = Paginator(projects, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "projects/list.html", {"page": page, "query": query})


@login_required
@require_POST
def project_new(request: HttpRequest) -> HttpResponse:
    project = project_create(owner=request.user)
    return redirect("project", project_id=project.id)


@login_required
@require_GET
@xframe_options_sameorigin
def project_view(request: HttpRequest, project_id: uuid.UUID) -> HttpResponse:
    """The current version as a standalone view: the projects page frames it as a thumbnail.
    It keeps the API view's policy (no network, opaque origin) but may be framed by us."""
    project = _owned(request, project_id)
    spec = project.current_version.spec if project.current_version else None
    response = HttpResponse(
        project_document(project, spec), content_type="text/html; charset=utf-8"
    )
    response["Content-Security-Policy"] = view_policy(frame_ancestors="'self'")
    response["Cache-Control"] = "private, no-cache"
    return response


@login_required
@require_http_methods(["GET", "POST"])
def project_rename_view(request: HttpRequest, project_id: uuid.UUID) -> HttpResponse:
    """GET: a page with the rename form (also where a refused name is explained)."""
    project = _owned(request, project_id)
    if request.method == "GET":
        context = {
            "project": project,
            "name": project.name,
            "next": _next(request, request.GET.get("next", "")),
        }
        return render(request, "projects/rename.html", context)
    if request.content_type == "application/json":
        try:
            renamed = project_rename(project=project, name=_json_body(request).get("name"))
        except InvalidRequest as exc:
            return _error(exc)
        return JsonResponse(_summary(renamed))
    try:
        project_rename(project=project, name=request.POST.get("name", ""))
    except InvalidRequest as exc:
        context = {
            "project": project,
            "name": request.POST.get("name", "")[:1000],
            "error": exc.message,
            "next": _next(request, request.POST.get("next", "")),
        }
        return render(request, "projects/rename.html", context, status=400)
    messages.success(request, f"Renamed to “{project.name}”.")
    return _back(request)


@login_required
@require_POST
def project_duplicate_view(request: HttpRequest, project_id: uuid.UUID) -> HttpResponse:
    project = _owned(request, project_id)
    copy = project_duplicate(project=project, author=request.user)
    if _wants_json(request):
        return JsonResponse(_summary(copy), status=201)
    messages.success(request, f"Duplicated “{project.name}” as “{copy.name}”.")
    return _back(request)


@login_required
@require_http_methods(["GET", "POST"])
def project_delete_view(request: HttpRequest, project_id: uuid.UUID) -> HttpResponse:
    """GET asks first (a page, so it needs no script); POST deletes."""
    project = _owned(request, project_id)
    if request.method == "GET":
        context = {
            "project": project,
            "version_count": project.versions.count(),
            "next": _next(request, request.GET.get("next", "")),
        }
        return render(request, "projects/delete.html", context)
    name = project.name
    project_delete(project=project)
    if _wants_json(request):
        return JsonResponse({"deleted": str(project_id)})
    messages.success(request, f"Deleted “{name}”.")
    return _back(request)


def _summary(project: Project) -> dict[str, Any]:
    return {
        "id": str(project.id),
        "name": project.name,
        "updated_at": project.updated_at.isoformat(),
        "url": reverse("project", args=[project.id]),
    }
