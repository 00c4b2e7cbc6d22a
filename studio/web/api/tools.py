"""The /v1/tools endpoints: global tools, functions promoted from a key's REPL session that
every new session can import (`from macaron_tools import <name>`; services/global_tools.py).

    GET    /v1/tools                    the active tools
    POST   /v1/tools                    promote {"session_id", "name", "tests"}
    GET    /v1/tools/<name>             its versions, newest first, with sources and tests
    POST   /v1/tools/<name>/activate    make {"version": n} (one of yours) the active one
    DELETE /v1/tools/<name>             demote: no active version (its versions stay)

Promotion reads the session and runs the tests in a fresh sandbox (a few seconds), so it runs
on a thread of its own, as the REPL endpoints' cells do.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from studio.blocking import off_thread
from studio.errors import InvalidRequest
from studio.services.global_tools import (
    global_tool_activate,
    global_tool_demote,
    global_tool_promote,
    global_tool_versions,
    global_tools_list,
)
from studio.web.api.auth import request_repl_owner
from studio.web.api.errors import error_response
from studio.web.api.protocol import parse_json_object
from studio.web.request_body import body_within


def _body(request: HttpRequest) -> dict[str, Any]:
    return parse_json_object(body_within(request, settings.MACARON_API_MAX_BODY_BYTES))


def _string(data: dict[str, Any], field: str) -> str:
    value = data.get(field)
    if not isinstance(value, str):
        raise InvalidRequest("invalid_value", f"'{field}' must be a string.", param=field)
    return value


@csrf_exempt
@require_http_methods(["GET", "POST"])
async def tools(request: HttpRequest) -> HttpResponseBase:
    try:
        owner = await database_sync_to_async(request_repl_owner)(request)
        if request.method == "GET":
            data = await database_sync_to_async(global_tools_list)(owner=owner)
            return JsonResponse({"object": "list", "data": data})
        body = _body(request)
        promoted = await off_thread(
            global_tool_promote,
            owner=owner,
            session_id=_string(body, "session_id"),
            name=_string(body, "name"),
            tests=_string(body, "tests"),
        )
    except InvalidRequest as exc:
        return error_response(exc)
    return JsonResponse(promoted, status=201)


@csrf_exempt
@require_http_methods(["GET", "DELETE"])
async def tool_detail(request: HttpRequest, name: str) -> HttpResponseBase:
    try:
        owner = await database_sync_to_async(request_repl_owner)(request)
        if request.method == "GET":
            versions = await database_sync_to_async(global_tool_versions)(owner=owner, name=name)
            return JsonResponse(versions)
        demoted = await database_sync_to_async(global_tool_demote)(owner=owner, name=name)
    except InvalidRequest as exc:
        return error_response(exc)
    return JsonResponse(demoted)


@csrf_exempt
@require_POST
async def tool_activate(request: HttpRequest, name: str) -> HttpResponseBase:
    try:
        owner = await database_sync_to_async(request_repl_owner)(request)
        version = _body(request).get("version")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            raise InvalidRequest(
                "invalid_value", "'version' must be a version number (1, 2, …).", param="version"
            )
        activated = await database_sync_to_async(global_tool_activate)(
            owner=owner, name=name, version=version
        )
    except InvalidRequest as exc:
        return error_response(exc)
    return JsonResponse(activated)
