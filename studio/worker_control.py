"""Telling every running worker about registry changes: Celery remote-control commands.

Why Celery's broadcast rather than our own Redis pub/sub: it already runs in every worker on
the broker they share, reaches workers of every profile queue on every host, runs the handler
in the worker process that owns the engine, and can collect one reply per worker, so
`register_adapter` can say which workers loaded the adapter and how long it took. Pub/sub would
need a listener thread of our own in each worker and gives no replies.

The handlers (registered when `studio.celery` imports this module) run on the worker's consumer
thread: loading is short and answered with its time; draining may last as long as a generation,
so unloading is started on the engine's loop and answered at once.
"""

from __future__ import annotations

import logging
from typing import Any

from celery.worker.control import control_command, inspect_command

from inference import hosting
from inference.loras import AdapterRef

log = logging.getLogger(__name__)

LOAD = "macaron_adapter_load"
UNLOAD = "macaron_adapter_unload"
RESIDENT = "macaron_adapters_resident"


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


def announce_load(ref: AdapterRef, *, timeout: float = 5.0) -> dict[str, Any]:
    """`timeout=0` sends without waiting for replies (a worker starting up)."""
    return _broadcast(
        LOAD,
        {"name": ref.name, "lora_id": ref.lora_id, "path": ref.path, "sha256": ref.sha256},
        timeout=timeout,
    )


def announce_unload(lora_id: int, *, timeout: float = 2.0) -> dict[str, Any]:
    return _broadcast(UNLOAD, {"lora_id": lora_id}, timeout=timeout)


def resident_everywhere(*, timeout: float = 2.0) -> dict[str, Any]:
    """Each worker's resident adapters, keyed by worker name."""
    return _broadcast(RESIDENT, {}, timeout=timeout)


def _broadcast(command: str, arguments: dict[str, Any], *, timeout: float) -> dict[str, Any]:
    """Send to every worker and gather their replies by worker name. A broker that cannot be
    reached is logged, not raised: the registry row is already committed, and workers resolve
    adapters from it on their next request anyway."""
    from studio.celery import app

    try:
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=1, timeout=2)
            replies = app.control.broadcast(
                command,
                arguments=arguments,
                connection=connection,
                reply=timeout > 0,
                timeout=timeout,
            )
    except Exception:
        log.exception("could not tell the workers: %s %s", command, arguments)
        return {}
    merged: dict[str, Any] = {}
    for reply in replies or []:
        merged.update(reply)
    log.info("%s: %s", command, merged)
    return merged
