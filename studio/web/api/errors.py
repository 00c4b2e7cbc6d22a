"""Refusals in OpenAI's error format: `{"error": {"message", "type", "param", "code"}}`."""

from __future__ import annotations

import json

from django.http import JsonResponse

from studio.errors import (
    Conflict,
    EngineFailed,
    Gone,
    InvalidRequest,
    NotAuthenticated,
    NotFound,
    RateLimited,
    TooLarge,
    Unavailable,
    Unprocessable,
)

# (status, OpenAI error type), most specific first.
STATUS: list[tuple[type[InvalidRequest], int, str]] = [
    (NotAuthenticated, 401, "authentication_error"),
    (NotFound, 404, "not_found_error"),
    (Conflict, 409, "invalid_request_error"),
    (Gone, 410, "invalid_request_error"),
    (TooLarge, 413, "invalid_request_error"),
    (Unprocessable, 422, "invalid_request_error"),
    (RateLimited, 429, "rate_limit_error"),
    (EngineFailed, 500, "server_error"),
    (Unavailable, 503, "server_error"),
    (InvalidRequest, 400, "invalid_request_error"),
]


def error_body(exc: InvalidRequest) -> dict[str, dict[str, str | None]]:
    _, kind = _status(exc)
    return {"error": {"message": exc.message, "type": kind, "param": exc.param, "code": exc.code}}


def error_event(exc: InvalidRequest) -> bytes:
    """The same body as one server-sent event, for failures after a stream has begun."""
    return f"data: {json.dumps(error_body(exc))}\n\n".encode()


def error_response(exc: InvalidRequest) -> JsonResponse:
    status, _ = _status(exc)
    response = JsonResponse(error_body(exc), status=status)
    if isinstance(exc, RateLimited):
        response["Retry-After"] = str(exc.retry_after)
    if isinstance(exc, NotAuthenticated):
        response["WWW-Authenticate"] = 'Bearer realm="macaron"'
    return response


def _status(exc: InvalidRequest) -> tuple[int, str]:
    return next((status, kind) for cls, status, kind in STATUS if isinstance(exc, cls))
