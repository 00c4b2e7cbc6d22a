"""Which generation tasks the broker still holds, so a sweep can tell a queued row whose task
was lost (Redis restarted without persistence, say) from one that is only waiting its turn.

Celery's Redis transport (kombu) keeps a queue's waiting messages in a list named after the
queue (one more per message priority, the name then ends in a separator and the priority),
and every message delivered to a worker and not yet acknowledged in the `unacked` hash (with
`acks_late`, until its run ends), each as JSON whose headers carry the task id.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any

import redis
from django.conf import settings

log = logging.getLogger(__name__)

UNACKED_KEY = "unacked"  # kombu's default `unacked_key`
PRIORITY_SEPARATOR = "\x06\x16"  # kombu's `sep` between a queue's name and a priority
PRIORITY_STEPS = (3, 6, 9)  # besides 0, the plain name: kombu's default steps


def broker_task_ids(queues: Iterable[str]) -> set[str] | None:
    """The ids of the tasks waiting in `queues` or delivered and not acknowledged; None when
    the broker cannot say (not Redis, or unreachable): then nothing may be taken as lost."""
    url = str(settings.CELERY_BROKER_URL)
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    client = redis.Redis.from_url(url)
    try:
        keys = [
            name
            for queue in queues
            for name in (queue, *(f"{queue}{PRIORITY_SEPARATOR}{step}" for step in PRIORITY_STEPS))
        ]
        waiting = [_decoded(raw) for key in keys for raw in client.lrange(key, 0, -1)]
        # An unacknowledged entry is [message, exchange, routing key].
        delivered = [_first(_decoded(raw)) for raw in client.hvals(UNACKED_KEY)]
    except redis.RedisError:
        log.warning("could not read the broker's queues", exc_info=True)
        return None
    finally:
        client.close()
    return {task_id for message in (*waiting, *delivered) if (task_id := _task_id(message))}


def _decoded(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError:
        return None


def _first(entry: Any) -> Any:
    return entry[0] if isinstance(entry, list) and entry else None


def _task_id(message: Any) -> str:
    headers = message.get("headers") if isinstance(message, dict) else None
    return str(headers.get("id") or "") if isinstance(headers, dict) else ""
