"""The remote-control commands a worker answers: load a newly registered adapter into its
engine, drain and unload a retired one, and list the resident ones. The web process sends them
through `studio.services.adapter_broadcast`, which says why Celery's broadcast.

The handlers (registered when `studio.worker.app` imports this module) run on the worker's
consumer thread: loading is short and answered with its time; draining may last as long as a
generation, so unloading is started on the engine's loop and answered at once.

Anyone who can reach the broker can send these commands, so a command is only a hint: a load
is carried out only for an id the database holds as active, with the name, folder and hash the
database holds for it; an unload only for an id the database holds as retired.
"""

from __future__ import annotations

import logging
from typing import Any

from celery.worker.control import control_command, inspect_command
from django.db import close_old_connections

from inference.loras import AdapterRef
from inference.serving import hosting
from studio.models import Adapter
from studio.services.adapter_broadcast import LOAD, RESIDENT, UNLOAD

log = logging.getLogger(__name__)


@control_command(
    name=LOAD,
    args=[("name", str), ("lora_id", int), ("path", str), ("sha256", str)],
    signature="<name> <lora_id> <path> <sha256>",
)
def adapter_load(state: Any, name: str, lora_id: int, path: str, sha256: str) -> dict[str, Any]:
    """Load a newly registered adapter into this worker's engine."""
    sent = AdapterRef(name=name, lora_id=int(lora_id), path=path, sha256=sha256)
    try:
        record = _adapter_record(sent.lora_id)
        if record is None or record.status != Adapter.Status.ACTIVE:
            log.warning("refused a load of adapter %s (lora id %s): not active", name, lora_id)
            return {"error": f"lora id {sent.lora_id} is not an active adapter; not loaded"}
        ref = AdapterRef(record.name, record.lora_id, record.path, record.sha256)
        if ref != sent:
            log.warning(
                "refused a load of adapter %s (lora id %s): not as registered", name, lora_id
            )
            return {
                "error": f"lora id {sent.lora_id} is registered with another name, folder "
                "or hash; not loaded"
            }
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
        record = _adapter_record(int(lora_id))
        if record is None or record.status != Adapter.Status.RETIRED:
            log.warning("refused an unload of lora id %s: not a retired adapter", lora_id)
            return {"error": f"lora id {int(lora_id)} is not a retired adapter; not unloaded"}
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


def _adapter_record(lora_id: int) -> Adapter | None:
    # These handlers run on the worker's consumer thread, which keeps its own connection
    # between commands: drop it first if the database has closed it meanwhile.
    close_old_connections()
    return Adapter.objects.filter(lora_id=lora_id).first()
