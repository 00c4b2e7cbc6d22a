"""The remote-control commands a worker answers: load a newly registered adapter into its
engine, drain and unload a retired one, and list the resident ones. The web process sends them
through `studio.services.adapter_broadcast`, which says why Celery's broadcast.

The handlers (registered when `studio.worker.app` imports this module) run on the worker's
consumer thread: loading is short and answered with its time; draining may last as long as a
generation, so unloading is started on the engine's loop and answered at once.
"""

from __future__ import annotations

import logging
from typing import Any

from celery.worker.control import control_command, inspect_command

from inference.loras import AdapterRef
from inference.serving import hosting
from studio.services.adapter_broadcast import LOAD, RESIDENT, UNLOAD

log = logging.getLogger(__name__)


@control_command(
    name=LOAD,
    args=[("name", str), ("lora_id", int), ("path", str), ("sha256", str)],
    signature="<name> <lora_id> <path> <sha256>",
)
def adapter_load(state: Any, name: str, lora_id: int, path: str, sha256: str) -> dict[str, Any]:
    """Load a newly registered adapter into this worker's engine."""
    ref = AdapterRef(name=name, lora_id=int(lora_id), path=path, sha256=sha256)
    try:
        load_ms = hosting.current_engine().load_adapter(ref)
    except Exception as exc:
        log.exception("could not load adapter %s (%s)", name, lora_id)
        return {"error": f"{type(exc).__name__}: {exc}"}
    log.info("adapter %s (lora id %s) resident after %.1f ms", name, lora_id, load_ms)
    return {"ok": "loaded", "name": name, "load_ms": round(load_ms, 1)}


@control_command(name=UNLOAD, args=[("lora_id", int)], signature="<lora_id>")
def adapter_unload(state: Any, lora_id: int) -> dict[str, Any]:
    """Drain an unregistered adapter (in-flight requests finish), then unload it."""
    try:
        hosting.current_engine().unload_adapter(int(lora_id), wait=False)
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
    return {"ok": "draining", "lora_id": int(lora_id)}


@inspect_command(name=RESIDENT)
def adapters_resident(state: Any) -> dict[str, Any]:
    """The adapters resident in this worker's engine, least recently used first."""
    try:
        return {"resident": hosting.current_engine().resident_adapters()}
    except Exception as exc:
        return {"error": f"{type(exc).__name__}: {exc}"}
