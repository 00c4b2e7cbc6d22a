"""Downloads of a project version: its standalone HTML file and its spec as JSON. The owner's
alone (anyone else gets the same 404 as for an id that never existed); plain links, so a
visitor who is not signed in is sent to sign in."""

from __future__ import annotations

import uuid
from collections.abc import Callable

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET

from studio.errors import NotFound, TooLarge
from studio.models import Version
from studio.selectors import project_of_user, version_of_project
from studio.services.exports import ExportFile, version_export_html, version_export_json
from studio.web.security import view_policy


def _version(request: HttpRequest, project_id: uuid.UUID, version_id: uuid.UUID) -> Version:
    project = project_of_user(user=request.user, project_id=project_id)
    if project is None:
        raise Http404("No such project")
    try:
        return version_of_project(project=project, version_id=version_id)
    except NotFound as exc:
        raise Http404(exc.message) from None


def _download(
    request: HttpRequest,
    project_id: uuid.UUID,
    version_id: uuid.UUID,
    export: Callable[..., ExportFile],
) -> HttpResponse:
    version = _version(request, project_id, version_id)
    try:
        file = export(version=version)
    except TooLarge as exc:
        return HttpResponse(exc.message, status=413, content_type="text/plain; charset=utf-8")
    response = HttpResponse(file.content, content_type=file.content_type)
    response["Content-Disposition"] = content_disposition_header(True, file.filename)
    # Should a browser ever show it here rather than save it, it is a sandboxed view with no
    # network, not a page of ours (the studio's policy would otherwise apply to it).
    response["Content-Security-Policy"] = view_policy()
    response["Cache-Control"] = "private, no-cache"
    return response


@login_required
@require_GET
def version_export_html_view(
    request: HttpRequest, project_id: uuid.UUID, version_id: uuid.UUID
) -> HttpResponse:
    return _download(request, project_id, version_id, version_export_html)


@login_required
@require_GET
def version_export_json_view(
    request: HttpRequest, project_id: uuid.UUID, version_id: uuid.UUID
) -> HttpResponse:
    return _download(request, project_id, version_id, version_export_json)
