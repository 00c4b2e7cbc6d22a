"""Following an API generation on the real Redis channel layer stays lossless: a gap in the
sequence numbers is filled from the row, and a lost final message is found by asking the row."""

from __future__ import annotations

import uuid

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from studio import messages
from studio.models import ApiKey, Generation
from studio.services import watch as watch_module
from studio.services.watch import GenerationWatch

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("api_redis")]


async def row(generation_id: uuid.UUID, **fields: object) -> None:
    def create() -> None:
        key = ApiKey.objects.create(prefix=f"mk-{uuid.uuid4().hex[:9]}", key_hash="x")
        Generation.objects.create(
            id=generation_id, api_key=key, prompt="p", expert="chat", **fields
        )

    await database_sync_to_async(create)()


async def test_a_skipped_batch_is_filled_in_from_the_row() -> None:
    generation_id = uuid.uuid4()
    await row(generation_id, text="Hello, wide world", seq=3)
    watch = GenerationWatch(generation_id)
    await watch.join()
    group = messages.generation_group(generation_id)
    layer = get_channel_layer()
    assert layer is not None
    for message in (
        {"type": messages.GENERATION_DELTA, "seq": 1, "delta": "Hello"},
        {"type": messages.GENERATION_DELTA, "seq": 3, "delta": " world"},  # seq 2 was lost
        {"type": messages.GENERATION_DELTA, "seq": 2, "delta": ", wide"},  # late: ignored
        {"type": messages.GENERATION_DONE, "text": "Hello, wide world!"},
    ):
        await layer.group_send(group, message)
    pieces = [piece async for piece in watch.pieces(timeout=10)]
    await watch.leave()
    assert pieces == ["Hello", ", wide world", "!"]


async def test_a_lost_final_message_is_found_on_the_row(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watch_module, "POLL_SECONDS", 0.2)
    generation_id = uuid.uuid4()
    await row(generation_id, text="All done", seq=2, status=Generation.Status.DONE)
    watch = GenerationWatch(generation_id)
    await watch.join()
    pieces = [piece async for piece in watch.pieces(timeout=10)]
    await watch.leave()
    assert pieces == ["All done"]
