"""Running a call that blocks for seconds (a kernel starting, a cell, a tool's tests) from an
async view: on a thread of its own, not on Django's one thread for synchronous code, which
would hold every other request's database work behind it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.db import close_old_connections

T = TypeVar("T")


async def off_thread(function: Callable[..., T], /, **kwargs: Any) -> T:
    """`function(**kwargs)` on a pool thread; the thread's database connection (a kernel's start
    reads the global tools) is closed afterwards rather than left open."""

    def run() -> T:
        try:
            return function(**kwargs)
        finally:
            close_old_connections()

    return await sync_to_async(run, thread_sensitive=False)()
