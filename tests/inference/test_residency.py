"""LoRA residency: a bounded set per engine, least-recently-used out, never an adapter a request
is still decoding with, and draining before an unload. Driven against a fake vLLM host that
only records calls (the real engine is covered by the stack tests). Each adapter is a small
folder of real files, since a load copies and hashes its weights."""

from __future__ import annotations

import asyncio
import hashlib
from pathlib import Path
from typing import Any

import pytest

from inference.loras import CONFIG, WEIGHTS, AdapterRef
from inference.serving.pinning import AdapterWeightsChanged
from inference.serving.residency import AdapterGone, LoraResidency

adapters = Path()  # this test's folder of adapters (set by the fixture below)


class FakeLoraHost:
    """Records add_lora / remove_lora like vLLM's AsyncLLM would receive them. A fake."""

    def __init__(self, load_seconds: float = 0.01) -> None:
        self.load_seconds = load_seconds
        self.loaded: list[int] = []
        self.removed: list[int] = []

    async def add_lora(self, lora_request: Any) -> bool:
        await asyncio.sleep(self.load_seconds)
        self.loaded.append(lora_request.lora_int_id)
        return True

    async def remove_lora(self, lora_id: int) -> bool:
        self.removed.append(lora_id)
        return True


@pytest.fixture(autouse=True)
def adapter_folders(tmp_path: Path) -> None:
    global adapters
    adapters = tmp_path


def adapter_ref(root: Path, lora_id: int) -> AdapterRef:
    """Adapter `lora_id` under `root`, written on first use, registered with its weights'
    true hash."""
    folder = root / str(lora_id)
    weights = f"weights of adapter {lora_id}".encode()
    if not folder.is_dir():
        folder.mkdir()
        (folder / CONFIG).write_text('{"peft_type": "LORA"}')
        (folder / WEIGHTS).write_bytes(weights)
    sha256 = hashlib.sha256(weights).hexdigest()
    return AdapterRef(f"expert{lora_id}", lora_id, str(folder), sha256)


def ref(lora_id: int) -> AdapterRef:
    return adapter_ref(adapters, lora_id)


async def test_a_non_resident_adapter_is_loaded_once_and_its_load_time_reported() -> None:
    host = FakeLoraHost(load_seconds=0.02)
    residency = LoraResidency(host, capacity=2)
    first = await residency.acquire(ref(1))
    await residency.release(ref(1))
    again = await residency.acquire(ref(1))
    assert first >= 15  # milliseconds, the fake's 20 ms load
    assert again == 0.0
    assert host.loaded == [1]


async def test_concurrent_requests_for_one_adapter_share_its_load() -> None:
    host = FakeLoraHost(load_seconds=0.02)
    residency = LoraResidency(host, capacity=2)
    waits = await asyncio.gather(*(residency.acquire(ref(1)) for _ in range(3)))
    assert host.loaded == [1]
    assert all(w > 0 for w in waits)  # each reports the load it waited for
    assert residency.snapshot()[0]["in_flight"] == 3


async def test_the_least_recently_used_idle_adapter_is_evicted() -> None:
    host = FakeLoraHost(load_seconds=0)
    residency = LoraResidency(host, capacity=2)
    for lora_id in (1, 2, 1):  # 1 used again: 2 is now the least recently used
        await residency.acquire(ref(lora_id))
        await residency.release(ref(lora_id))
    await residency.acquire(ref(3))
    assert host.removed == [2]
    assert [r["lora_id"] for r in residency.snapshot()] == [1, 3]
    assert residency.evictions == 1


async def test_an_adapter_in_use_is_never_evicted_a_new_one_waits_for_room() -> None:
    host = FakeLoraHost(load_seconds=0)
    residency = LoraResidency(host, capacity=1)
    await residency.acquire(ref(1))  # decoding
    waiting = asyncio.create_task(residency.acquire(ref(2)))
    await asyncio.sleep(0.05)
    assert not waiting.done()
    assert host.removed == []
    await residency.release(ref(1))
    await asyncio.wait_for(waiting, 1)
    assert host.removed == [1]
    assert host.loaded == [1, 2]


async def test_unloading_drains_in_flight_requests_and_refuses_new_ones() -> None:
    host = FakeLoraHost(load_seconds=0)
    residency = LoraResidency(host, capacity=2)
    await residency.acquire(ref(1))
    unloading = asyncio.create_task(residency.unload(1))
    await asyncio.sleep(0.05)
    assert not unloading.done()  # the request on it is still decoding
    with pytest.raises(AdapterGone):
        await residency.acquire(ref(1))
    await residency.release(ref(1))
    assert await asyncio.wait_for(unloading, 1) is True
    assert host.removed == [1]
    assert residency.snapshot() == []
    with pytest.raises(AdapterGone):  # a stale reference to the retired version
        await residency.acquire(ref(1))


async def test_preloading_makes_an_adapter_resident_without_counting_a_request() -> None:
    host = FakeLoraHost(load_seconds=0.01)
    residency = LoraResidency(host, capacity=2)
    assert await residency.preload(ref(5)) > 0
    assert await residency.preload(ref(5)) == 0.0
    assert await residency.acquire(ref(5)) == 0.0
    assert residency.snapshot()[0]["in_flight"] == 1


async def test_weights_swapped_after_registration_are_refused_at_load() -> None:
    host = FakeLoraHost(load_seconds=0)
    residency = LoraResidency(host, capacity=2)
    registered = ref(7)
    (Path(registered.path) / WEIGHTS).write_bytes(b"someone else's weights")
    with pytest.raises(AdapterWeightsChanged, match="was registered"):
        await residency.acquire(registered)
    with pytest.raises(AdapterWeightsChanged):
        await residency.preload(registered)
    assert host.loaded == []
    assert residency.snapshot() == []


async def test_vllm_reads_a_checked_copy_that_later_writes_cannot_reach() -> None:
    host = FakeLoraHost(load_seconds=0)
    loaded_paths: list[str] = []
    add_lora = host.add_lora

    async def recording(lora_request: Any) -> bool:
        loaded_paths.append(lora_request.lora_path)
        return await add_lora(lora_request)

    host.add_lora = recording  # type: ignore[method-assign]
    residency = LoraResidency(host, capacity=1)
    registered = ref(1)
    await residency.preload(registered)
    copy = Path(loaded_paths[0])
    assert copy != Path(registered.path)
    assert residency.loaded_from(1) == str(copy)
    (Path(registered.path) / WEIGHTS).write_bytes(b"swapped after the load")
    assert (copy / WEIGHTS).read_bytes() == b"weights of adapter 1"
    assert residency.snapshot()[0]["sha256"] == registered.sha256
    await residency.acquire(ref(2))  # evicts 1: its copy goes with it
    assert not copy.exists()


async def test_a_resident_id_is_refused_for_a_ref_naming_other_weights() -> None:
    """A load broadcast under a registered id with other weights cannot make requests for
    that id run on them while reporting the registered hash."""
    residency = LoraResidency(FakeLoraHost(load_seconds=0), capacity=2)
    await residency.preload(ref(3))
    other = AdapterRef("expert3", 3, ref(3).path, "0" * 64)
    with pytest.raises(AdapterWeightsChanged, match="resident with weights"):
        await residency.acquire(other)
