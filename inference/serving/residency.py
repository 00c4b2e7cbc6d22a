"""Which LoRA adapters are resident in one engine: a bounded set, evicted least-recently-used.

vLLM keeps up to `max_cpu_loras` adapters loaded and would evict on its own, silently, in the
middle of a request's first step. Loading them ourselves, through `add_lora`, before a request
names one, lets us time the load and report it, never evict an adapter a request is still
decoding with, and drain an unregistered adapter before `remove_lora`. Every method runs on
the engine's event loop, so no locks are needed besides the per-adapter load futures.

vLLM reads each adapter from a private copy whose hash was checked against the registered one
(`pinning`), kept while the adapter is resident and removed when it is unloaded.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from inference.loras import AdapterRef
from inference.serving.pinning import AdapterWeightsChanged, pinned_copy


class LoraHost(Protocol):
    """The part of vLLM's `AsyncLLM` this module drives."""

    async def add_lora(self, lora_request: Any) -> bool: ...

    async def remove_lora(self, lora_id: int) -> bool: ...


class AdapterGone(RuntimeError):
    """The adapter was unregistered (or replaced) while this request waited for it."""


@dataclass
class Resident:
    ref: AdapterRef
    load_ms: float
    loaded_from: Path  # the private copy vLLM read
    sha256: str  # of the weights loaded, taken while copying them
    in_flight: int = 0
    draining: bool = False
    idle: asyncio.Event = field(default_factory=asyncio.Event)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.ref.name,
            "lora_id": self.ref.lora_id,
            "sha256": self.sha256,
            "load_ms": round(self.load_ms, 1),
            "in_flight": self.in_flight,
            "draining": self.draining,
        }


class LoraResidency:
    def __init__(self, host: LoraHost, capacity: int) -> None:
        if capacity < 1:
            raise ValueError("at least one adapter must fit")
        self.host = host
        self.capacity = capacity
        self._resident: OrderedDict[int, Resident] = OrderedDict()  # oldest use first
        self._loading: dict[int, asyncio.Future[float]] = {}
        self._gone: set[int] = set()  # unloaded on purpose: refuse stale references
        self._room = asyncio.Condition()
        self.evictions = 0
        # Removed with its contents when the residency is collected or the process exits.
        self._copies = tempfile.TemporaryDirectory(prefix="macaron-adapters-")

    def snapshot(self) -> list[dict[str, Any]]:
        """Resident adapters, least recently used first."""
        return [r.as_dict() for r in self._resident.values()]

    async def acquire(self, ref: AdapterRef) -> float:
        """Make `ref` resident and count a request on it; returns the milliseconds this call
        spent loading (or waiting for another call's load), 0.0 when it was resident."""
        if ref.lora_id in self._gone:
            raise AdapterGone(f"the adapter {ref.name!r} (this version) was unregistered")
        started = time.perf_counter()
        was_resident = ref.lora_id in self._resident
        if not was_resident:
            await self._load(ref)
        resident = self._resident.get(ref.lora_id)
        if resident is None or resident.draining:
            raise AdapterGone(f"the adapter {ref.name!r} is being unloaded")
        if ref.sha256 and resident.sha256 != ref.sha256:
            raise AdapterWeightsChanged(
                f"the adapter {ref.name!r} (lora id {ref.lora_id}) is resident with weights "
                f"{resident.sha256[:12]}, not the {ref.sha256[:12]} registered"
            )
        resident.in_flight += 1
        resident.idle.clear()
        self._resident.move_to_end(ref.lora_id)
        # Exactly 0.0 when nothing was loaded: a busy machine makes even this await-free path
        # take measurable time, and callers read 0.0 as "it was resident".
        return 0.0 if was_resident else (time.perf_counter() - started) * 1000

    def loaded_from(self, lora_id: int) -> str:
        """The folder vLLM loaded a resident adapter from: requests must name this one, so
        vLLM never reads the adapter's own, unchecked folder."""
        return str(self._resident[lora_id].loaded_from)

    def loaded_sha256(self, lora_id: int) -> str:
        """The sha256 of a resident adapter's weights, taken as they were copied for vLLM."""
        return self._resident[lora_id].sha256

    async def release(self, ref: AdapterRef) -> None:
        resident = self._resident.get(ref.lora_id)
        if resident is None:
            return
        resident.in_flight -= 1
        if resident.in_flight == 0:
            resident.idle.set()
            async with self._room:
                self._room.notify_all()

    async def preload(self, ref: AdapterRef) -> float:
        """Load without counting a request (a registration broadcast); returns the load ms."""
        if ref.lora_id in self._resident:
            self._resident.move_to_end(ref.lora_id)
            return 0.0
        return await self._load(ref)

    async def unload(self, lora_id: int) -> bool:
        """Drain then unload: new requests on this id are refused at once, requests already
        decoding with it finish first. Returns whether it was resident."""
        self._gone.add(lora_id)
        if lora_id in self._loading:
            await asyncio.shield(self._loading[lora_id])
        resident = self._resident.get(lora_id)
        if resident is None:
            return False
        resident.draining = True
        if resident.in_flight:
            await resident.idle.wait()
        await self._evict(lora_id)
        return True

    async def _load(self, ref: AdapterRef) -> float:
        pending = self._loading.get(ref.lora_id)
        if pending is not None:  # another request is loading it: share that load
            return await asyncio.shield(pending)
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        self._loading[ref.lora_id] = future
        try:
            await self._make_room()
            from vllm.lora.request import LoRARequest

            started = time.perf_counter()
            copy = Path(self._copies.name) / f"{ref.lora_id}-{time.monotonic_ns()}"
            # Off the loop: hashing a large adapter must not stall the requests decoding.
            sha256 = await asyncio.to_thread(pinned_copy, ref, copy)
            try:
                await self.host.add_lora(LoRARequest(ref.name, ref.lora_id, str(copy)))
            except BaseException:
                shutil.rmtree(copy, ignore_errors=True)
                raise
            load_ms = (time.perf_counter() - started) * 1000
            self._resident[ref.lora_id] = Resident(ref, load_ms, copy, sha256)
            self._resident[ref.lora_id].idle.set()
            future.set_result(load_ms)
            return load_ms
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved here so a load nobody shares logs no warning
            raise
        finally:
            del self._loading[ref.lora_id]

    async def _make_room(self) -> None:
        """Evict least-recently-used idle adapters until one more fits; when every resident
        adapter is decoding, wait for one to go idle rather than pull weights from under it."""
        async with self._room:
            while len(self._resident) + len(self._loading) > self.capacity:
                victim = next((i for i, r in self._resident.items() if r.in_flight == 0), None)
                if victim is None:
                    await self._room.wait()
                    continue
                await self._evict(victim)
                self.evictions += 1

    async def _evict(self, lora_id: int) -> None:
        resident = self._resident.pop(lora_id, None)
        await self.host.remove_lora(lora_id)
        if resident is not None:
            shutil.rmtree(resident.loaded_from, ignore_errors=True)
