"""Follows one API generation's batches on the channel layer, from an async HTTP request.

Join the generation's group before its task is enqueued, or the first batches can slip past.
Streaming stays lossless: a skipped sequence number, a lost message or a quiet spell is made
good from the generation's row, which every batch writes before it is sent.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from studio import messages
from studio.errors import EngineFailed
from studio.selectors import completion_finished, completion_text

POLL_SECONDS = 10.0  # how long to trust the channel layer before asking the row


class GenerationWatch:
    def __init__(self, generation_id: uuid.UUID) -> None:
        self.generation_id = generation_id
        self.group = messages.generation_group(generation_id)
        self.layer: Any = get_channel_layer()
        self.channel = ""

    async def join(self) -> None:
        self.channel = await self.layer.new_channel()
        await self.layer.group_add(self.group, self.channel)

    async def leave(self) -> None:
        if self.channel:
            await self.layer.group_discard(self.group, self.channel)
            self.channel = ""

    async def pieces(self, *, timeout: float) -> AsyncIterator[str]:
        """New text, in order and without gaps, until the generation has finished."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        seq, known, sent = 0, "", 0
        while True:
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise EngineFailed("timeout", f"No result within {timeout:.0f} seconds.")
            message = await self._next(min(POLL_SECONDS, remaining))
            if message is None:
                if await database_sync_to_async(completion_finished)(
                    generation_id=self.generation_id
                ):
                    _, known = await self._row()
                    if known[sent:]:
                        yield known[sent:]
                    return
                continue
            if message["type"] == messages.GENERATION_DONE:
                final = str(message["text"])
                if final[sent:]:
                    yield final[sent:]
                return
            if message["type"] != messages.GENERATION_DELTA or message["seq"] <= seq:
                continue
            if message["seq"] == seq + 1:
                seq, known = seq + 1, known + str(message["delta"])
            else:  # a gap: the row holds at least everything up to this batch
                seq, known = await self._row()
            if known[sent:]:
                yield known[sent:]
                sent = len(known)

    async def _next(self, wait: float) -> dict[str, Any] | None:
        try:
            message: dict[str, Any] = await asyncio.wait_for(self.layer.receive(self.channel), wait)
        except TimeoutError:
            return None
        return message

    async def _row(self) -> tuple[int, str]:
        row: tuple[int, str] = await database_sync_to_async(completion_text)(
            generation_id=self.generation_id
        )
        return row
