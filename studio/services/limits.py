"""Per-key rate and concurrency limits, counted in Redis so every web process shares them.

Rate: a fixed one-minute window per key. Concurrency: a sorted set of the key's open
requests, scored by start time; members older than the API timeout are dropped, so a crashed
process cannot hold a slot for ever.
"""

from __future__ import annotations

import functools
import time

import redis
from django.conf import settings

from studio.errors import RateLimited

WINDOW_SECONDS = 60


@functools.cache
def _client(url: str) -> redis.Redis[bytes]:
    return redis.Redis.from_url(url)


def _redis() -> redis.Redis[bytes]:
    return _client(settings.REDIS_URL)


def limits_acquire(*, key_id: int, request_id: str) -> None:
    """Count one request against the key's rate, and take one of its concurrency slots."""
    now = time.time()
    window = int(now // WINDOW_SECONDS)
    rate_key = f"macaron:api:rate:{key_id}:{window}"
    pipe = _redis().pipeline()
    pipe.incr(rate_key)
    pipe.expire(rate_key, WINDOW_SECONDS * 2)
    count = int(pipe.execute()[0])
    if count > settings.MACARON_API_RATE_PER_MINUTE:
        retry_after = max(1, int((window + 1) * WINDOW_SECONDS - now) + 1)
        raise RateLimited(
            "rate_limit_exceeded",
            f"This key may make {settings.MACARON_API_RATE_PER_MINUTE} requests a minute.",
            retry_after=retry_after,
        )
    active_key = f"macaron:api:active:{key_id}"
    stale = now - settings.MACARON_API_TIMEOUT_SECONDS - 60
    pipe = _redis().pipeline()
    pipe.zremrangebyscore(active_key, "-inf", stale)
    pipe.zadd(active_key, {request_id: now})
    pipe.zcard(active_key)
    pipe.expire(active_key, int(settings.MACARON_API_TIMEOUT_SECONDS) + 120)
    active = int(pipe.execute()[2])
    if active > settings.MACARON_API_MAX_CONCURRENT:
        _redis().zrem(active_key, request_id)
        raise RateLimited(
            "concurrency_limit_exceeded",
            f"This key may have {settings.MACARON_API_MAX_CONCURRENT} requests open at once.",
            retry_after=1,
        )


def limits_release(*, key_id: int, request_id: str) -> None:
    _redis().zrem(f"macaron:api:active:{key_id}", request_id)
