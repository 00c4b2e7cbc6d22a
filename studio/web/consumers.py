"""The studio's WebSocket: decodes a frame, calls a service, relays the project group's batches."""

from __future__ import annotations

import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from studio import messages
from studio.errors import InvalidRequest
from studio.selectors import generation_snapshot
from studio.services.generations import generation_create
from studio.services.projects import project_create

log = logging.getLogger(__name__)


class StudioConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    async def connect(self) -> None:
        self.groups_joined: set[str] = set()
        await self.accept()
        # A reloaded studio page follows its project's running generation from the start.
        project = messages.project_from_query(self.scope.get("query_string", b""))
        if project is not None:
            await self._join(messages.project_group(project))

    async def disconnect(self, code: int) -> None:
        for group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            request = messages.decode(text_data, max_bytes=settings.MACARON_MESSAGE_MAX_BYTES)
            if isinstance(request, messages.GenerateRequest):
                await self._generate(request)
            else:
                snapshot = await database_sync_to_async(generation_snapshot)(
                    generation_id=request.generation
                )
                await self.send_json({"type": messages.GENERATION_SNAPSHOT, **snapshot})
        except (messages.BadMessage, InvalidRequest) as exc:
            await self.send_json(messages.error(exc.code, str(exc)))
        except Exception:
            log.exception("studio message failed")
            await self.send_json(messages.error("server_error", "Something went wrong; try again."))

    async def _generate(self, request: messages.GenerateRequest) -> None:
        project_id = request.project
        if project_id is None:
            project_id = (await database_sync_to_async(project_create)()).id
        # Join before the task is enqueued, so the first batch cannot slip past us.
        await self._join(messages.project_group(project_id))
        generation = await database_sync_to_async(generation_create)(
            prompt=request.prompt, expert=request.expert, project_id=project_id
        )
        await self.send_json(
            {
                "type": messages.GENERATION_ACCEPTED,
                "generation": str(generation.id),
                "project": str(project_id),
                "expert": generation.expert,
            }
        )

    async def _join(self, group: str) -> None:
        if group not in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.add(group)

    async def generation_delta(self, event: dict[str, Any]) -> None:
        await self.send_json(event)

    async def generation_done(self, event: dict[str, Any]) -> None:
        await self.send_json(event)
