"""One API chat-completion request's lifecycle around its generation: take a slot under the key's
limits, join the generation's group before it is enqueued (or the first batches can slip past),
follow it, and at the end, however it ends (answered, failed, timed out, or the client gone),
leave the group, cancel a generation still running, and give the slot back."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

from channels.db import database_sync_to_async
from django.conf import settings

from studio.errors import EngineFailed
from studio.models import ApiKey
from studio.selectors import CompletionResult, completion_result
from studio.services.completions import ChatCompletionRequest, completion_create
from studio.services.generations import generation_cancel
from studio.services.limits import limits_acquire, limits_release
from studio.services.watch import GenerationWatch


class CompletionRequest:
    def __init__(self, api_key: ApiKey, chat: ChatCompletionRequest) -> None:
        self.api_key = api_key
        self.chat = chat
        self.request_id = str(uuid.uuid4())
        self.watch = GenerationWatch(uuid.uuid4())

    async def start(self) -> CompletionResult:
        """Take a slot, join, and store and enqueue the generation. Raises `InvalidRequest`
        (over a limit, an unknown model or expert, ...); a slot it took is given back then."""
        await database_sync_to_async(limits_acquire)(
            key_id=self.api_key.pk, request_id=self.request_id
        )
        try:
            await self.watch.join()
            chat = self.chat
            started: CompletionResult = await database_sync_to_async(completion_create)(
                generation_id=self.watch.generation_id,
                api_key=self.api_key,
                model=chat.model,
                router_name=chat.router,
                messages=chat.messages,
                max_tokens=chat.max_tokens,
                temperature=chat.temperature,
                top_p=chat.top_p,
                stop=chat.stop,
                tools=chat.tools,
            )
        except BaseException:
            await self.finish()
            raise
        return started

    def pieces(self) -> AsyncIterator[str]:
        """The generation's text as it arrives, lossless, until it finishes or times out."""
        return self.watch.pieces(timeout=settings.MACARON_API_TIMEOUT_SECONDS)

    async def result(self) -> CompletionResult:
        """The finished generation; raises `EngineFailed` if it failed."""
        result: CompletionResult = await database_sync_to_async(completion_result)(
            generation_id=self.watch.generation_id, api_key=self.api_key
        )
        if result.failed:
            raise EngineFailed("engine_error", result.error or "The engine failed.")
        return result

    async def finish(self) -> None:
        """The request is over. A generation still running then has nobody to answer, so it
        stops (a no-op once it has finished)."""
        await self.watch.leave()
        await database_sync_to_async(generation_cancel)(generation_id=self.watch.generation_id)
        await database_sync_to_async(limits_release)(
            key_id=self.api_key.pk, request_id=self.request_id
        )
