"""Rate and concurrency limits, counted in Redis so every web process and worker shares them:
per API key for the HTTP API, per user for the studio.

Rate: a sliding one-minute window per owner, a sorted set of the starts it let through,
scored by time. A fixed window would let twice the rate through across a minute's boundary,
and refuse or allow the same two starts depending on the clock's second.

Concurrency: a sorted set of the owner's open requests (or generations), scored by start time;
members older than `stale_after` are dropped, so a crashed process cannot hold a slot for ever.
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass

import redis
from django.conf import settings

from studio.errors import RateLimited

WINDOW_SECONDS = 60
# How long past the generation time limit a studio slot may stay taken: the queue wait and the
# worker's final write. After that a slot nobody released (a crashed worker) is free again.
STUDIO_SLOT_GRACE_SECONDS = 300


@functools.cache
def _client(url: str) -> redis.Redis[bytes]:
    return redis.Redis.from_url(url)


def _redis() -> redis.Redis[bytes]:
    return _client(settings.REDIS_URL)


@dataclass(frozen=True)
class Counters:
    """One owner's counters under a scope ("api", "studio")."""

    scope: str
    owner: str

    @property
    def rate_key(self) -> str:
        return f"macaron:{self.scope}:starts:{self.owner}"

    @property
    def active_key(self) -> str:
        return f"macaron:{self.scope}:active:{self.owner}"

    def count_start(self, member: str, *, per_minute: int) -> int | None:
        """Count the start `member` among the owner's starts of the last minute. Returns None
        if it fits within `per_minute`, else the seconds until the oldest counted start leaves
        the window (and counts nothing)."""
        now = time.time()
        pipe = _redis().pipeline()
        pipe.zremrangebyscore(self.rate_key, "-inf", now - WINDOW_SECONDS)
        pipe.zadd(self.rate_key, {member: now})
        pipe.zcard(self.rate_key)
        pipe.zrange(self.rate_key, 0, 0, withscores=True)
        pipe.expire(self.rate_key, WINDOW_SECONDS * 2)
        _, _, counted, oldest, _ = pipe.execute()
        if int(counted) <= per_minute:
            return None
        self.uncount_start(member)
        oldest_at = float(oldest[0][1]) if oldest else now
        return max(1, int(oldest_at + WINDOW_SECONDS - now) + 1)

    def uncount_start(self, member: str) -> None:
        """Take back a counted start that was refused after all."""
        _redis().zrem(self.rate_key, member)

    def take_slot(self, member: str, *, most: int, stale_after: float) -> bool:
        """Hold one of the owner's `most` slots for `member`; False (and nothing held) if all
        are taken."""
        now = time.time()
        pipe = _redis().pipeline()
        pipe.zremrangebyscore(self.active_key, "-inf", now - stale_after)
        pipe.zadd(self.active_key, {member: now})
        pipe.zcard(self.active_key)
        pipe.expire(self.active_key, int(stale_after) + 60)
        if int(pipe.execute()[2]) <= most:
            return True
        _redis().zrem(self.active_key, member)
        return False

    def release_slot(self, member: str) -> None:
        _redis().zrem(self.active_key, member)


def _api(key_id: int) -> Counters:
    return Counters("api", str(key_id))


def limits_acquire(*, key_id: int, request_id: str) -> None:
    """Count one request against the key's rate, and take one of its concurrency slots."""
    counters = _api(key_id)
    retry_after = counters.count_start(request_id, per_minute=settings.MACARON_API_RATE_PER_MINUTE)
    if retry_after is not None:
        raise RateLimited(
            "rate_limit_exceeded",
            f"This key may make {settings.MACARON_API_RATE_PER_MINUTE} requests a minute.",
            retry_after=retry_after,
        )
    stale_after = settings.MACARON_API_TIMEOUT_SECONDS + 60
    most = settings.MACARON_API_MAX_CONCURRENT
    if not counters.take_slot(request_id, most=most, stale_after=stale_after):
        raise RateLimited(
            "concurrency_limit_exceeded",
            f"This key may have {most} requests open at once.",
            retry_after=1,
        )


def limits_release(*, key_id: int, request_id: str) -> None:
    _api(key_id).release_slot(request_id)


def _studio(user_id: int) -> Counters:
    return Counters("studio", str(user_id))


def studio_limits_acquire(*, user_id: int, generation_id: str) -> None:
    """Count one generation against the user's rate, and hold one of their slots for it until
    `studio_limits_release`. A refused generation counts against neither."""
    counters = _studio(user_id)
    per_minute = settings.MACARON_STUDIO_RATE_PER_MINUTE
    retry_after = counters.count_start(generation_id, per_minute=per_minute)
    if retry_after is not None:
        raise RateLimited(
            "rate_limited",
            f"You have reached your limit of {per_minute} generation"
            f"{'s' if per_minute != 1 else ''} a minute; try again in {retry_after} s.",
            retry_after=retry_after,
        )
    most = settings.MACARON_STUDIO_MAX_CONCURRENT
    stale_after = settings.MACARON_GENERATION_TIME_LIMIT_SECONDS + STUDIO_SLOT_GRACE_SECONDS
    if not counters.take_slot(generation_id, most=most, stale_after=stale_after):
        counters.uncount_start(generation_id)
        raise RateLimited(
            "concurrency_limited",
            f"You can run {most} generation{'s' if most != 1 else ''} at once; wait for one "
            "to finish.",
            retry_after=1,
        )


def studio_limits_release(*, user_id: int, generation_id: str) -> None:
    _studio(user_id).release_slot(generation_id)
