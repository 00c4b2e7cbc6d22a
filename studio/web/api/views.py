"""The /v1/ endpoints: authenticate, parse, call a service, shape the answer. Nothing else.

Keys come only from `Authorization: Bearer`; CSRF does not apply, as no cookie authenticates.
A client that disconnects cancels its generation: Django cancels the view (or closes the event
stream), and the request's lifecycle (services/api_requests.py) cancels a generation that has
not finished whenever the request ends. Every completion goes through the tool loop
(services/tool_loop/), which without tools is one generation.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

from channels.db import database_sync_to_async
from django.conf import settings
from django.http import (
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
    StreamingHttpResponse,
)
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from studio.errors import EngineFailed, InvalidRequest, NotFound
from studio.selectors import CompletionResult, completion_result, models_list
from studio.services.shared_views import view_document_for, view_token_for
from studio.services.tool_loop.loop import ReplStep, ToolLoop, single_outcome
from studio.web.api import wire
from studio.web.api.auth import request_key
from studio.web.api.errors import error_event, error_response
from studio.web.api.protocol import parse_chat_request
from studio.web.failures import failure_logged, failure_message
from studio.web.request_body import body_within
from studio.web.security import view_policy


def _view_url(request: HttpRequest, result: CompletionResult) -> str | None:
    if result.spec is None:
        return None
    token = view_token_for(generation_id=result.id)
    return request.build_absolute_uri(reverse("api-view", args=[token]))


def _headers(result: CompletionResult) -> dict[str, str]:
    return {"x-macaron-expert": result.expert, "x-macaron-routing": result.routing.get("mode", "")}


@csrf_exempt
@require_POST
async def chat_completions(request: HttpRequest) -> HttpResponseBase:
    try:
        api_key = await database_sync_to_async(request_key)(request)
        chat = parse_chat_request(
            body_within(request, settings.MACARON_API_MAX_BODY_BYTES),
            max_tokens=settings.MACARON_API_MAX_TOKENS,
        )
        loop = ToolLoop.for_api_key(api_key, chat)
        started = await loop.start()
    except InvalidRequest as exc:
        return error_response(exc)
    response: HttpResponseBase
    if chat.stream:
        events = _stream(request, loop, started)
        response = StreamingHttpResponse(events, content_type="text/event-stream")
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # proxies must pass events on at once
    else:
        try:
            async for _ in loop.run():
                pass
            assert loop.outcome is not None
            view_url = _view_url(request, loop.outcome.last)
            response = JsonResponse(wire.completion_body(loop.outcome, view_url=view_url))
        except InvalidRequest as exc:
            response = error_response(exc)
        finally:
            await loop.finish()
    for name, value in _headers(started).items():
        response[name] = value
    return response


async def _stream(
    request: HttpRequest, loop: ToolLoop, started: CompletionResult
) -> AsyncIterator[bytes]:
    try:
        yield wire.chunk(started, {"role": "assistant", "content": ""})
        async for event in loop.run():
            if isinstance(event, ReplStep):
                yield wire.repl_step_chunk(started, event.step)
            else:
                yield wire.chunk(started, {"content": event})
        outcome = loop.outcome
        assert outcome is not None
        if outcome.tool_calls:
            yield wire.tool_calls_chunk(started, outcome.tool_calls)
        yield wire.last_chunk(outcome, view_url=_view_url(request, outcome.last))
    except InvalidRequest as exc:
        yield error_event(exc)
    except Exception:  # the status line is sent: the stream's last event says it failed
        failure_id = failure_logged("a chat completion stream failed")
        yield error_event(EngineFailed("server_error", failure_message(failure_id)))
    finally:
        await loop.finish()


@require_GET
def completion_detail(request: HttpRequest, completion_id: str) -> HttpResponse:
    """A stored completion of the caller's (OpenAI's "retrieve a chat completion")."""
    try:
        api_key = request_key(request)
        generation_id = _generation_id(completion_id)
        result = completion_result(generation_id=generation_id, api_key=api_key)
    except InvalidRequest as exc:
        return error_response(exc)
    body = wire.completion_body(single_outcome(result), view_url=_view_url(request, result))
    return JsonResponse(body)


def _generation_id(completion_id: str) -> uuid.UUID:
    try:
        return uuid.UUID(completion_id.removeprefix("chatcmpl-"))
    except ValueError:
        raise NotFound("completion_not_found", "No completion with that id.") from None


@require_GET
def models(request: HttpRequest) -> HttpResponse:
    try:
        request_key(request)
    except InvalidRequest as exc:
        return error_response(exc)
    data = [{"object": "model", "created": 0, "owned_by": "macaron", **m} for m in models_list()]
    return JsonResponse({"object": "list", "data": data})


@require_GET
def view_document(request: HttpRequest, token: str) -> HttpResponse:
    """A ui generation's rendered view, sandboxed and offline by its policy."""
    try:
        document = view_document_for(token=token)
    except InvalidRequest as exc:
        return error_response(exc)
    response = HttpResponse(document, content_type="text/html; charset=utf-8")
    response["Content-Security-Policy"] = view_policy()
    return response
