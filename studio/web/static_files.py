"""Static files through WhiteNoise, in an async-capable middleware.

WhiteNoise's middleware is sync-only, and a single sync middleware makes Django run every async
view under `async_to_sync` in a worker thread. There, Django's cancellation on a client
disconnect never reaches the view, so an API request given up on would keep its generation
running to `max_tokens`. This wrapper asks WhiteNoise only about paths under `STATIC_URL`
(in a thread: it may stat and open files) and awaits the rest of the chain directly.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from asgiref.sync import markcoroutinefunction, sync_to_async
from django.conf import settings
from django.http import HttpRequest
from django.http.response import HttpResponseBase
from whitenoise.middleware import WhiteNoiseMiddleware  # type: ignore[import-untyped]


class AsyncWhiteNoiseMiddleware:
    sync_capable = False
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Awaitable[HttpResponseBase]]) -> None:
        self.get_response = get_response
        # Given a "next" that answers None, WhiteNoise returns a file response or None.
        self.static = WhiteNoiseMiddleware(lambda request: None)
        self.prefix = str(settings.STATIC_URL)
        markcoroutinefunction(self)

    async def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if request.path_info.startswith(self.prefix):
            response: HttpResponseBase | None = await sync_to_async(
                self.static, thread_sensitive=False
            )(request)
            if response is not None:
                return response
        return await self.get_response(request)
