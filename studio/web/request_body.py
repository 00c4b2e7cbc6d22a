"""Reading a request's body within a byte budget, checked before and while it is read."""

from __future__ import annotations

from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest

from studio.errors import TooLarge


def body_within(request: HttpRequest, limit: int) -> bytes:
    """The raw body, or TooLarge when it is (or says it is) over `limit` bytes."""
    too_large = TooLarge("request_too_large", f"Request bodies are limited to {limit} bytes.")
    declared = request.headers.get("Content-Length", "0")
    if declared.isdigit() and int(declared) > limit:
        raise too_large  # the ASGI guard (studio.web.body_limit) refused it unread already
    try:
        body = request.body
    except RequestDataTooBig:  # Django's own, larger limit
        raise too_large from None
    if len(body) > limit:
        raise too_large
    return body
