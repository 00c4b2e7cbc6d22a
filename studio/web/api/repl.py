"""The /v1/repl/ endpoints: sandboxed Python sessions for an API key (studio/repl/).

    POST   /v1/repl/sessions                   start one
    GET    /v1/repl/sessions                   the key's sessions
    POST   /v1/repl/sessions/<id>/execute      run {"code": ...}; stdout, stderr, result, error
    POST   /v1/repl/sessions/<id>/reset        a fresh kernel and an empty home
    GET    /v1/repl/sessions/<id>/cells        its cell log past ?after=<index>
    DELETE /v1/repl/sessions/<id>              stop it and remove its files

Starting a kernel or running a cell blocks for up to the cell's wall-time limit, so each runs
on a thread of its own, not on Django's one thread for synchronous code.
"""

from __future__ import annotations

from channels.db import database_sync_to_async
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from studio.blocking import off_thread
from studio.errors import InvalidRequest
from studio.services.repl import (
    repl_cells,
    repl_execute,
    repl_session_close,
    repl_session_create,
    repl_session_list,
    repl_session_reset,
)
from studio.web.api.auth import request_repl_owner
from studio.web.api.errors import error_response
from studio.web.api.protocol import parse_json_object
from studio.web.request_body import body_within


@csrf_exempt
@require_http_methods(["GET", "POST"])
async def sessions(request: HttpRequest) -> HttpResponseBase:
    try:
        owner = await database_sync_to_async(request_repl_owner)(request)
        if request.method == "GET":
            data = await off_thread(repl_session_list, owner=owner)
            return JsonResponse({"object": "list", "data": data})
        body_within(request, settings.MACARON_API_MAX_BODY_BYTES)
        session = await off_thread(repl_session_create, owner=owner)
    except InvalidRequest as exc:
        return error_response(exc)
    return JsonResponse(session, status=201)


@csrf_exempt
@require_http_methods(["DELETE"])
async def session_detail(request: HttpRequest, session_id: str) -> HttpResponseBase:
    try:
        owner = await database_sync_to_async(request_repl_owner)(request)
        await off_thread(repl_session_close, owner=owner, session_id=session_id)
    except InvalidRequest as exc:
        return error_response(exc)
    return JsonResponse({"id": session_id, "object": "repl.session.deleted", "deleted": True})


@csrf_exempt
@require_POST
async def session_execute(request: HttpRequest, session_id: str) -> HttpResponseBase:
    try:
        owner = await database_sync_to_async(request_repl_owner)(request)
        data = parse_json_object(body_within(request, settings.MACARON_API_MAX_BODY_BYTES))
        code = data.get("code")
        if not isinstance(code, str):
            raise InvalidRequest(
                "invalid_value", "'code' must be a string of Python.", param="code"
            )
        result = await off_thread(
            repl_execute, owner=owner, session_id=session_id, code=code, by="api"
        )
    except InvalidRequest as exc:
        return error_response(exc)
    return JsonResponse(result)


@csrf_exempt
@require_POST
async def session_reset(request: HttpRequest, session_id: str) -> HttpResponseBase:
    try:
        owner = await database_sync_to_async(request_repl_owner)(request)
        session = await off_thread(repl_session_reset, owner=owner, session_id=session_id, by="api")
    except InvalidRequest as exc:
        return error_response(exc)
    return JsonResponse(session)


@csrf_exempt
@require_GET
async def session_cells(request: HttpRequest, session_id: str) -> HttpResponseBase:
    try:
        owner = await database_sync_to_async(request_repl_owner)(request)
        after = request.GET.get("after", "0")
        if not after.isdigit() or len(after) > 16:
            raise InvalidRequest(
                "invalid_value", "'after' must be a cell index: 0 or more.", param="after"
            )
        result = await off_thread(repl_cells, owner=owner, session_id=session_id, after=int(after))
    except InvalidRequest as exc:
        return error_response(exc)
    return JsonResponse(result)
