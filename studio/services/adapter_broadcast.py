"""Telling every running worker about registry changes, through Celery's remote control; the
commands themselves run in the worker (`studio.worker.control`).

Why Celery's broadcast rather than our own Redis pub/sub: it already runs in every worker on
the broker they share, reaches workers of every profile queue on every host, runs the handler
in the worker process that owns the engine, and can collect one reply per worker, so
`register_adapter` can say which workers loaded the adapter and how long it took. Pub/sub would
need a listener thread of our own in each worker and gives no replies.
"""

from __future__ import annotations

import logging
from typing import Any

from inference.loras import AdapterRef
from studio.celery import app

log = logging.getLogger(__name__)

LOAD = "macaron_adapter_load"
UNLOAD = "macaron_adapter_unload"
RESIDENT = "macaron_adapters_resident"


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
