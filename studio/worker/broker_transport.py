"""The broker's transport: kombu's Redis transport, with a QoS that lets a worker live through
a Redis restart.

Tasks are acknowledged late, so a worker holds delivered, unacknowledged messages. When Redis
goes away, kombu closes the channel and puts them back through the connection it has just
dropped; and once reconnected, a task that was running acknowledges its message on that closed
channel. kombu 5.7 raises AttributeError in both, and Celery takes it as an unrecoverable
error and stops the worker. Measured: one Redis restart stopped the worker after its running
generation, and every later generation waited in the queue.

The messages are safe where they are: Redis holds them in its unacknowledged set, kombu
restores them after the visibility timeout, and the queued-row sweep sends a generation
whose task is gone again (`studio/worker/queued.py`). So a failed restore is logged, and the
worker reconnects.
"""

from __future__ import annotations

import logging
from typing import Any

from kombu.transport import redis as kombu_redis

log = logging.getLogger(__name__)


class QoS(kombu_redis.QoS):
    def _channel_closed(self) -> bool:
        """The channel's connection was dropped (kombu sets these to None as it closes)."""
        connection = self.channel.connection
        return connection is None or connection.client is None

    def restore_unacked(self, client: Any = None) -> None:
        if client is None and self._channel_closed():
            delivered: dict[str, Any] = self._delivered or {}
            log.warning(
                "could not hand %d unacknowledged task(s) back to a broker that went away; "
                "they return after the visibility timeout",
                len(delivered),
            )
            delivered.clear()
            return
        super().restore_unacked(client)

    def ack(self, delivery_tag: str) -> None:
        if self._channel_closed():
            log.warning(
                "a task finished after its broker connection was dropped; its message returns "
                "after the visibility timeout, and the generation, already ended, ignores it"
            )
            return
        super().ack(delivery_tag)

    def reject(self, delivery_tag: str, requeue: bool = False) -> None:
        if self._channel_closed():
            return  # the message is still unacknowledged: it returns after the timeout
        super().reject(delivery_tag, requeue=requeue)


class Channel(kombu_redis.Channel):
    QoS = QoS


class Transport(kombu_redis.Transport):
    Channel = Channel
