"""The data panel's JSON endpoints: list a project's datasets, upload a file or paste a table
(a new dataset, or a new version of the one with that name), preview rows, correct a column's
type, rename, delete.

The project's owner only, like the rest of `/p/<uuid>/...`: a visitor gets 401, anyone else a
404 as for a project that does not exist. Errors are `{"error": {"code", "message"}}`; a
refused upload's message names the problem and, where there is one, the row and column."""

from __future__ import annotations

import json
import uuid
from typing import Any

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_GET, require_POST

from studio.errors import InvalidRequest, NotAuthenticated, TooLarge
from studio.models import DatasetVersion
from studio.services.datasets import (
    dataset_column_type_set,
    dataset_delete,
    dataset_limits,
    dataset_of_project,
    dataset_paste,
    dataset_preview,
    dataset_rename,
    dataset_upload,
    datasets_of_project,
)
from studio.services.datasets.limits import DatasetRejected, megabytes
from studio.services.datasets.writes import PASTE_MAX_BYTES
from studio.stored_tables.reads import version_changes
from studio.web.projects_api import error_json, json_body, owned_project, signed_in_json
from studio.web.request_body import body_within
from studio.web.uploads import UploadBudget, install_budget, too_large


def _saved(project: Any, version: DatasetVersion) -> dict[str, Any]:
    """The datasets after a write, and what the new version changed in its columns (a spec
    that used a removed column shows nothing there)."""
    return {
        "dataset": version.dataset.name,
        "version": version.number,
        "changes": version_changes(version),
        **datasets_of_project(project=project),
    }


@require_GET
@signed_in_json
def datasets(request: HttpRequest, project_id: uuid.UUID) -> dict[str, Any]:
    """The datasets, and the limits (the page checks a file's size before sending it)."""
    limits = dataset_limits()
    return {
        **datasets_of_project(project=owned_project(request, project_id)),
        "limits": {
            "max_bytes": limits.max_bytes,
            "max_rows": limits.max_rows,
            "max_columns": limits.max_columns,
        },
    }


@csrf_exempt
@require_POST
def upload(request: HttpRequest, project_id: uuid.UUID) -> JsonResponse:
    """Multipart: `file`, and optionally `name` (the dataset to add a version to)."""
    limit = settings.MACARON_DATASET_MAX_BYTES
    try:
        if not request.user.is_authenticated:
            raise NotAuthenticated("not_signed_in", "Sign in to use the studio.")
        owned_project(request, project_id)  # before reading a byte of a stranger's upload
        budget = install_budget(request, limit)
    except InvalidRequest as exc:
        return error_json(exc)
    return _upload_checked(request, project_id, budget)


@csrf_protect
@signed_in_json
def _upload_checked(
    request: HttpRequest, project_id: uuid.UUID, budget: UploadBudget
) -> dict[str, Any]:
    project = owned_project(request, project_id)
    upload = request.FILES.get("file")
    if budget.exceeded:
        raise too_large(budget.limit)
    if upload is None:
        raise DatasetRejected("no_file", "Choose a file to upload.", param="file")
    data = upload.read(budget.limit + 1)
    if len(data) > budget.limit:
        raise too_large(budget.limit, upload.size)
    version = dataset_upload(
        project=project,
        filename=upload.name or "upload",
        data=data,
        name=request.POST.get("name"),
        author=request.user,
    )
    return _saved(project, version)


@require_POST
@signed_in_json
def paste(request: HttpRequest, project_id: uuid.UUID) -> dict[str, Any]:
    """JSON: `text` (the table), optionally `name`."""
    project = owned_project(request, project_id)
    try:  # the service checks the text itself against PASTE_MAX_BYTES
        body_within(request, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
    except TooLarge:
        raise TooLarge(
            "file_too_large",
            f"A pasted table is limited to {megabytes(PASTE_MAX_BYTES)}; upload a larger one "
            "as a file.",
        ) from None
    body = _body_large(request)
    version = dataset_paste(
        project=project, text=body.get("text"), name=body.get("name"), author=request.user
    )
    return _saved(project, version)


def _body_large(request: HttpRequest) -> dict[str, Any]:
    """The JSON body; its size was checked against the paste limit already."""
    try:
        data = json.loads(request.body)
    except (ValueError, RecursionError):  # RecursionError: nested past the parser's stack
        raise InvalidRequest("bad_request", "The request body is not valid JSON.") from None
    if not isinstance(data, dict):
        raise InvalidRequest("bad_request", "The request body must be a JSON object.")
    return data


@require_GET
@signed_in_json
def rows(request: HttpRequest, project_id: uuid.UUID, name: str) -> dict[str, Any]:
    dataset = dataset_of_project(project=owned_project(request, project_id), name=name)
    return dataset_preview(dataset=dataset)


@require_POST
@signed_in_json
def column_type(request: HttpRequest, project_id: uuid.UUID, name: str) -> dict[str, Any]:
    """JSON: `column` (its name) and `type`; a new version, or the cell that does not convert."""
    project = owned_project(request, project_id)
    dataset = dataset_of_project(project=project, name=name)
    body = json_body(request)
    version = dataset_column_type_set(
        dataset=dataset, column=body.get("column"), kind=body.get("type"), author=request.user
    )
    return {**_saved(project, version), "preview": dataset_preview(dataset=version.dataset)}


@require_POST
@signed_in_json
def rename(request: HttpRequest, project_id: uuid.UUID, name: str) -> dict[str, Any]:
    project = owned_project(request, project_id)
    dataset = dataset_rename(
        dataset=dataset_of_project(project=project, name=name), name=json_body(request).get("name")
    )
    return {"dataset": dataset.name, **datasets_of_project(project=project)}


@require_POST
@signed_in_json
def delete(request: HttpRequest, project_id: uuid.UUID, name: str) -> dict[str, Any]:
    project = owned_project(request, project_id)
    dataset_delete(dataset=dataset_of_project(project=project, name=name))
    return datasets_of_project(project=project)
