"""Sends channel-layer messages from synchronous code (Celery threads, a failed enqueue) on one
long-lived loop, and says which group watches a generation.

`async_to_sync` would build a fresh event loop per call, and channels-redis keeps a connection
pool per loop; one loop per process keeps a single pool and costs no set-up per batch.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import redis.exceptions
from channels.layers import get_channel_layer

from studio import messages
from studio.models import Generation
from studio.selectors import generation_payload

_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None


def _running_loop() -> asyncio.AbstractEventLoop:
    global _loop
    with _lock:
        if _loop is None:
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="channel-layer", daemon=True).start()
        return _loop


def group_send(group: str, message: dict[str, Any], *, timeout: float = 10.0) -> None:
    layer = get_channel_layer()
    if layer is None:
        raise RuntimeError("no channel layer is configured")
    for attempt in (1, 2):
        future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _running_loop())
        try:
            future.result(timeout=timeout)
            return
        except redis.exceptions.ConnectionError:
            # After a Redis restart the pool still holds the dead connection: the first send
            # fails on it and drops it, and a second one gets a fresh connection.
            if attempt == 2:
                raise


def watchers_group(generation: Generation) -> str:
    """Studio generations stream to their project's group, API generations to their own, as do
    the chat turns of a project's Python panel (the project's page does not draw them)."""
    if generation.project_id and not generation.messages:
        return messages.project_group(generation.project_id)
    return messages.generation_group(generation.pk)


def announce_done(generation: Generation, **extra: Any) -> None:
    """Send a finished generation's final message, with everything a client needs to draw it
    (plus `extra`: the studio adds the version the generation made)."""
    group_send(
        watchers_group(generation),
        {"type": messages.GENERATION_DONE, **generation_payload(generation), **extra},
    )
