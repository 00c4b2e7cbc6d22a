"""Remote-control commands are hints, checked against the database: whoever reaches the broker
cannot load weights under an id that is not active, nor unload an adapter still active."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from inference.serving import hosting
from studio.models import Adapter
from studio.worker.control import adapter_load, adapter_unload
from tests.fakes import ScriptedFakeEngine

pytestmark = pytest.mark.django_db(transaction=True)  # the handlers close stale connections


@pytest.fixture
def engine() -> Iterator[ScriptedFakeEngine]:
    fake = ScriptedFakeEngine("")
    hosting.install_engine(fake)
    yield fake
    hosting.install_engine(None)


def record(lora_id: int, status: str = Adapter.Status.ACTIVE) -> Adapter:
    return Adapter.objects.create(
        name=f"poet{lora_id}",
        base_model="base",
        base_sha256="b" * 64,
        path=f"/adapters/poet{lora_id}",
        sha256=f"{lora_id}" * 64,
        rank=8,
        lora_id=lora_id,
        status=status,
    )


def load(adapter: Adapter, **changes: object) -> dict[str, object]:
    sent = {
        "name": adapter.name,
        "lora_id": adapter.lora_id,
        "path": adapter.path,
        "sha256": adapter.sha256,
        **changes,
    }
    answer: dict[str, object] = adapter_load(None, **sent)
    return answer


def test_a_load_for_an_active_id_as_registered_is_carried_out(engine: ScriptedFakeEngine) -> None:
    active = record(1)
    assert load(active)["ok"] == "loaded"
    assert engine.resident[1].sha256 == active.sha256


def test_loads_for_ids_not_active_or_not_as_registered_are_refused(
    engine: ScriptedFakeEngine,
) -> None:
    active, retired = record(1), record(2, Adapter.Status.RETIRED)
    future = Adapter(name="evil", path="/tmp/evil", sha256="e" * 64, lora_id=99)
    assert "not an active adapter" in str(load(retired)["error"])
    assert "not an active adapter" in str(load(future)["error"])  # a future id, unknown yet
    for changed in ({"path": "/tmp/evil"}, {"sha256": "e" * 64}, {"name": "chat"}):
        assert "registered with another" in str(load(active, **changed)["error"])
    assert engine.resident == {}


def test_unloads_are_carried_out_only_for_retired_ids(engine: ScriptedFakeEngine) -> None:
    active, retired = record(1), record(2, Adapter.Status.RETIRED)
    engine.resident = {1: object(), 2: object()}  # type: ignore[dict-item]
    assert "not a retired adapter" in str(adapter_unload(None, active.lora_id)["error"])
    assert "not a retired adapter" in str(adapter_unload(None, 77)["error"])
    assert adapter_unload(None, retired.lora_id)["ok"] == "draining"
    assert list(engine.resident) == [1]
