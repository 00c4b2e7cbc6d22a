"""Every answer under /v1/ is in OpenAI's error format, Django's own included: a path that is
not routed (404), a method a route does not take (405), and an unexpected exception (500, with
a failure id instead of its text). OpenAI clients parse `{"error": {...}}`; an HTML page breaks
them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from asgiref.sync import markcoroutinefunction
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse

from studio.web.failures import failure_logged, failure_message

API_PREFIX = "/v1/"

# Django's own refusals, as OpenAI's clients expect them: (type, code, message).
DJANGO_REFUSALS: dict[int, tuple[str, str, str]] = {
    404: ("not_found_error", "not_found", "There is no such endpoint."),
    405: ("invalid_request_error", "method_not_allowed", "This endpoint does not take {method}."),
}
OTHER_REFUSAL = ("invalid_request_error", "invalid_request", "The request was refused.")


def _error(status: int, kind: str, code: str, message: str) -> JsonResponse:
    body = {"error": {"message": message, "type": kind, "param": None, "code": code}}
    return JsonResponse(body, status=status)


def _is_json(response: HttpResponseBase) -> bool:
    return str(response.get("Content-Type", "")).startswith("application/json")


class OpenAIErrorsMiddleware:
    """Async-capable, so it never pushes the API's async views into a worker thread."""

    sync_capable = False
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]]) -> None:
        self.get_response = get_response
        markcoroutinefunction(self)

    async def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = await self.get_response(request)
        if not request.path.startswith(API_PREFIX) or response.status_code < 400:
            return response
        if _is_json(response):
            return response  # the API's own refusals are already in the format
        if response.status_code >= 500:
            # Django's 500 page for an exception that `process_exception` did not see.
            return _error(response.status_code, "server_error", "server_error", "Server error.")
        kind, code, message = DJANGO_REFUSALS.get(response.status_code, OTHER_REFUSAL)
        refusal = _error(response.status_code, kind, code, message.format(method=request.method))
        if allow := response.get("Allow"):
            refusal["Allow"] = allow
        return refusal

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not request.path.startswith(API_PREFIX):
            return None  # Django's own handling (its 500 page, and its log)
        failure_id = failure_logged(f"{request.method} {request.path} failed")
        return _error(500, "server_error", "server_error", failure_message(failure_id))
