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

# kombu's defaults, unless the transport options say otherwise.
UNACKED_KEY = "unacked"
PRIORITY_SEPARATOR = "\x06\x16"  # between a queue's name and a priority
PRIORITY_STEPS = (0, 3, 6, 9)  # 0: the plain name


def broker_task_ids(queues: Iterable[str]) -> set[str] | None:
    """The ids of the tasks waiting in `queues` or delivered and not acknowledged; None when
    the broker cannot say (not Redis, or unreachable): then nothing may be taken as lost."""
    url = str(settings.CELERY_BROKER_URL)
    if not url.startswith(("redis://", "rediss://", "unix://")):
        return None
    options = dict(getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", None) or {})
    prefix = str(options.get("global_keyprefix", ""))
    separator = str(options.get("sep", PRIORITY_SEPARATOR))
    steps = options.get("priority_steps", PRIORITY_STEPS)
    keys = [
        prefix + (f"{queue}{separator}{step}" if step else queue)
        for queue in queues
        for step in steps
    ]
    unacked = prefix + str(options.get("unacked_key", UNACKED_KEY))
    client = redis.Redis.from_url(url)
    try:
        waiting = [_decoded(raw) for key in keys for raw in client.lrange(key, 0, -1)]
        # An unacknowledged entry is [message, exchange, routing key].
        delivered = [_first(_decoded(raw)) for raw in client.hvals(unacked)]
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
