"""One chat-completion request's lifecycle around its generations: take a slot under its
owner's limits for the whole request, join each generation's group before it is enqueued (or the
first batches can slip past), follow it, and at the end, however it ends (answered, failed,
timed out, or the client gone), leave the group, cancel a generation still running, and give
the slot back. A request runs one generation, or one per step of a tool loop, in turn.

Two owners: an API key (`CompletionRequest`), and a studio user asking an expert from a
project's Python panel (`ProjectCompletionRequest`: the studio's limits, the project's rows)."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import replace

from channels.db import database_sync_to_async
from django.conf import settings

from inference import router
from inference.protocol import Message
from studio.errors import EngineFailed
from studio.models import ApiKey, Project
from studio.selectors import CompletionResult, completion_result
from studio.services.completions import ChatCompletionRequest, completion_create
from studio.services.generations import generation_cancel
from studio.services.limits import (
    limits_acquire,
    limits_release,
    studio_limits_acquire,
    studio_limits_release,
)
from studio.services.watch import GenerationWatch


class CompletionRequest:
    """An API key's request: the key's limits, rows of the key's."""

    def __init__(
        self, api_key: ApiKey | None, chat: ChatCompletionRequest, project: Project | None = None
    ) -> None:
        self.api_key = api_key
        self.project = project  # the project whose rows these are (a subclass's)
        self.chat = chat
        self.request_id = str(uuid.uuid4())
        self.watch = GenerationWatch(uuid.uuid4())
        self.generations = 0
        self._routing: router.Routing | None = None

    async def start(self) -> CompletionResult:
        """Take a slot, join, and store and enqueue the first generation. Raises
        `InvalidRequest` (over a limit, an unknown model or expert, ...); a slot it took is
        given back then."""
        await database_sync_to_async(self._acquire)()
        try:
            return await self._generate(self.chat)
        except BaseException:
            await self.finish()
            raise

    async def next_generation(self, messages: tuple[Message, ...]) -> CompletionResult:
        """The next generation of this request, on `messages`, by the first one's expert (the
        previous one has finished)."""
        await self.watch.leave()
        self.watch = GenerationWatch(uuid.uuid4())
        return await self._generate(replace(self.chat, messages=messages))

    async def _generate(self, chat: ChatCompletionRequest) -> CompletionResult:
        await self.watch.join()
        started: CompletionResult = await database_sync_to_async(completion_create)(
            generation_id=self.watch.generation_id,
            api_key=self.api_key,
            chat=chat,
            routing=self._routing,
            project=self.project,
        )
        self._routing = router.Routing(**started.routing)
        self.generations += 1
        return started

    def pieces(self) -> AsyncIterator[str]:
        """The generation's text as it arrives, lossless, until it finishes or times out."""
        return self.watch.pieces(timeout=settings.MACARON_API_TIMEOUT_SECONDS)

    async def result(self) -> CompletionResult:
        """The finished generation; raises `EngineFailed` if it failed."""
        result: CompletionResult = await database_sync_to_async(completion_result)(
            generation_id=self.watch.generation_id, api_key=self.api_key, project=self.project
        )
        if result.failed:
            raise EngineFailed("engine_error", result.error or "The engine failed.")
        return result

    async def finish(self) -> None:
        """The request is over. A generation still running then has nobody to answer, so it
        stops (a no-op once it has finished)."""
        await self.watch.leave()
        await database_sync_to_async(generation_cancel)(generation_id=self.watch.generation_id)
        await database_sync_to_async(self._release)()

    def _acquire(self) -> None:
        assert self.api_key is not None
        limits_acquire(key_id=self.api_key.pk, request_id=self.request_id)

    def _release(self) -> None:
        assert self.api_key is not None
        limits_release(key_id=self.api_key.pk, request_id=self.request_id)


class ProjectCompletionRequest(CompletionRequest):
    """A studio user's question to an expert from a project's Python panel: one start against
    the user's studio rate, and one of their studio slots held for the whole loop (as one
    studio generation holds one); its generations are the project's rows."""

    def __init__(self, user_id: int, project: Project, chat: ChatCompletionRequest) -> None:
        super().__init__(None, chat, project)
        self.user_id = user_id
        self.slot = f"ask:{self.request_id}"  # apart from the slots generations hold

    def _acquire(self) -> None:
        studio_limits_acquire(user_id=self.user_id, generation_id=self.slot)

    def _release(self) -> None:
        studio_limits_release(user_id=self.user_id, generation_id=self.slot)
