"""The studio's WebSocket: decodes a frame, calls a service, relays the project group's batches.

Only signed-in users connect (Channels' AuthMiddlewareStack sets scope["user"]), and only to
their own projects: anyone else's is answered "unknown_project", never joined.
"""

from __future__ import annotations

import contextlib
import uuid
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings

from studio import messages
from studio.errors import PROJECT_GONE, InvalidRequest
from studio.selectors import generation_snapshot, project_of_user
from studio.services.generations import generation_start, generation_stop
from studio.web.failures import failure_logged, failure_message

# The close code for a connection without a signed-in user (HTTP's 401, in the range
# applications may use), so the page can tell "sign in again" from a dropped network.
NOT_SIGNED_IN = 4401
# The socket's consumer failed (its channel layer lost Redis): reconnect, then resync. HTTP's
# 503 in the application range: Daphne's WebSocket library (autobahn) refuses to send any
# code an application picks outside 1000 and 3000-4999, 1011 included, and the socket stayed
# open and dead.
TRY_AGAIN = 4503


class StudioConsumer(AsyncJsonWebsocketConsumer):  # type: ignore[misc]
    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Run the consumer; if it fails (the channel layer lost Redis while connecting or
        waiting), close the socket with TRY_AGAIN, so the client reconnects and resyncs
        rather than waiting on a socket no consumer reads."""
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            failure_logged("the studio socket's consumer failed; closing it to be reopened")
            with contextlib.suppress(Exception):
                await send({"type": "websocket.close", "code": TRY_AGAIN})

    async def connect(self) -> None:
        self.groups_joined: set[str] = set()
        self.user = self.scope.get("user")
        await self.accept()
        if self.user is None or not self.user.is_authenticated:
            await self.close(code=NOT_SIGNED_IN)
            return
        # A reloaded studio page follows its project's running generation from the start.
        project = messages.project_from_query(self.scope.get("query_string", b""))
        if project is not None:
            if await database_sync_to_async(project_of_user)(user=self.user, project_id=project):
                await self._join(messages.project_group(project))
            else:
                await self.send_json(messages.error("unknown_project", PROJECT_GONE))

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", ()):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            request = messages.decode(text_data, max_bytes=settings.MACARON_MESSAGE_MAX_BYTES)
            if isinstance(request, messages.GenerateRequest):
                await self._generate(request)
            elif isinstance(request, messages.StopRequest):
                # Its watchers, this one included, get the final "cancelled" message.
                await database_sync_to_async(generation_stop)(
                    user=self.user, generation_id=request.generation
                )
            else:
                snapshot = await database_sync_to_async(generation_snapshot)(
                    generation_id=request.generation, user=self.user
                )
                await self.send_json({"type": messages.GENERATION_SNAPSHOT, **snapshot})
        except (messages.BadMessage, InvalidRequest) as exc:
            await self.send_json(messages.error(exc.code, str(exc)))
        except Exception:
            failure_id = failure_logged("a studio message failed")
            await self.send_json(messages.error("server_error", failure_message(failure_id)))

    async def _generate(self, request: messages.GenerateRequest) -> None:
        # Join before the task is enqueued, so the first batch cannot slip past us; a new
        # project's id is chosen here for that reason, and the project is made only if the
        # generation is accepted.
        project_id = request.project or uuid.uuid4()
        group = messages.project_group(project_id)
        joined_now = group not in self.groups_joined
        if request.project is None or await database_sync_to_async(project_of_user)(
            user=self.user, project_id=project_id
        ):
            await self._join(group)
        try:
            generation = await database_sync_to_async(generation_start)(
                user=self.user,
                project_id=request.project,
                new_project_id=project_id,
                prompt=request.prompt,
                expert=request.expert,
                base_version_id=request.base,
                target=request.target,
                best_of=request.best_of,
            )
        except Exception:
            if joined_now:
                await self._leave(group)
            raise
        await self.send_json(
            {
                "type": messages.GENERATION_ACCEPTED,
                "generation": str(generation.id),
                "project": str(project_id),
                "expert": generation.expert,
                "base": str(generation.base_version_id) if generation.base_version_id else None,
                "target": generation.target,
            }
        )

    async def _join(self, group: str) -> None:
        if group not in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.add(group)

    async def _leave(self, group: str) -> None:
        if group in self.groups_joined:
            await self.channel_layer.group_discard(group, self.channel_name)
            self.groups_joined.discard(group)

    async def generation_delta(self, event: dict[str, Any]) -> None:
        await self.send_json(event)

    async def generation_drafts(self, event: dict[str, Any]) -> None:
        await self.send_json(event)

    async def generation_done(self, event: dict[str, Any]) -> None:
        await self.send_json(event)

    async def project_changed(self, event: dict[str, Any]) -> None:
        await self.send_json(event)
