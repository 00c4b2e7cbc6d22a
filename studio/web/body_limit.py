"""An ASGI guard in front of Django: no request body over the largest one the studio takes
(a dataset upload) is read at all.

Django's ASGI handler reads a whole body (into memory, then a temporary file) before any view
runs, so a view's own check comes after a 200 MB upload has been received. Here a declared
Content-Length over the limit is answered 413 at once, and a body that arrives without one is
cut off as soon as it passes the limit. Paths may have lower limits of their own (the API's
bodies are small), applied here for the same reason."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Any, Any, Any], Awaitable[None]]


def _size(limit: int) -> str:
    if limit >= 1024 * 1024:
        return f"{limit / (1024 * 1024):.0f} MB"
    return f"{limit} bytes"


def _message(limit: int) -> bytes:
    text = f"Request bodies here are limited to {_size(limit)}."
    # OpenAI's error format, which the API's clients parse; the studio reads code and message.
    error = {"message": text, "type": "invalid_request_error", "param": None}
    return json.dumps({"error": {**error, "code": "request_too_large"}}).encode()


async def _refuse(send: Send, limit: int) -> None:
    body = _message(limit)
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    def __init__(
        self,
        app: App,
        limit: int,
        *,
        by_prefix: Mapping[str, int] | None = None,
        by_suffix: Mapping[str, int] | None = None,
    ) -> None:
        """`limit` for every path, or the limit of the first of `by_prefix` the path starts
        with, or else of the first of `by_suffix` it ends with."""
        self.app = app
        self.default_limit = limit
        self.by_prefix = dict(by_prefix or {})
        self.by_suffix = dict(by_suffix or {})

    def limit_for(self, path: str) -> int:
        for prefix, limit in self.by_prefix.items():
            if path.startswith(prefix):
                return limit
        for suffix, limit in self.by_suffix.items():
            if path.endswith(suffix):
                return limit
        return self.default_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope.get("path", ""))
        headers = dict(scope.get("headers") or [])
        declared = headers.get(b"content-length", b"").decode("latin-1")
        if declared.isdigit() and int(declared) > limit:
            await _refuse(send, limit)
            return
        received = 0
        exceeded = False
        started = False

        async def counted_receive() -> Message:
            nonlocal received, exceeded
            if exceeded:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    exceeded = True
                    return {"type": "http.disconnect"}  # the app stops reading; we answer
            return message

        async def tracked_send(message: Message) -> None:
            nonlocal started
            if exceeded:
                return
            started = True
            await send(message)

        await self.app(scope, counted_receive, tracked_send)
        if exceeded and not started:
            await _refuse(send, limit)
