"""Per-user studio limits, counted in the real (private) Redis: generations a minute, and
generations queued or running at once."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis

from studio.errors import RateLimited
from studio.services import limits
from studio.services.limits import studio_limits_acquire, studio_limits_release

pytestmark = pytest.mark.usefixtures("limits_redis")


def test_it_holds_a_slot_per_running_generation_and_frees_it_on_release(settings: Any) -> None:
    settings.MACARON_STUDIO_MAX_CONCURRENT = 2
    studio_limits_acquire(user_id=1, generation_id="g1")
    studio_limits_acquire(user_id=1, generation_id="g2")
    with pytest.raises(RateLimited) as refused:
        studio_limits_acquire(user_id=1, generation_id="g3")
    assert refused.value.code == "concurrency_limited"
    assert str(refused.value) == "You can run 2 generations at once; wait for one to finish."
    studio_limits_acquire(user_id=2, generation_id="other")  # another user has their own
    studio_limits_release(user_id=1, generation_id="g1")
    studio_limits_acquire(user_id=1, generation_id="g3")


def test_it_refuses_the_generation_over_the_rate_with_the_seconds_to_wait(settings: Any) -> None:
    settings.MACARON_STUDIO_RATE_PER_MINUTE = 3
    settings.MACARON_STUDIO_MAX_CONCURRENT = 100
    for n in range(3):
        studio_limits_acquire(user_id=1, generation_id=f"g{n}")
    with pytest.raises(RateLimited) as refused:
        studio_limits_acquire(user_id=1, generation_id="g3")
    assert refused.value.code == "rate_limited"
    assert 1 <= refused.value.retry_after <= 61
    assert str(refused.value) == (
        "You have reached your limit of 3 generations a minute; "
        f"try again in {refused.value.retry_after} s."
    )
    studio_limits_acquire(user_id=2, generation_id="other")


def test_a_generation_refused_for_concurrency_does_not_use_up_the_rate(settings: Any) -> None:
    settings.MACARON_STUDIO_RATE_PER_MINUTE = 2
    settings.MACARON_STUDIO_MAX_CONCURRENT = 1
    studio_limits_acquire(user_id=1, generation_id="g1")
    for _ in range(5):
        with pytest.raises(RateLimited, match="at once"):
            studio_limits_acquire(user_id=1, generation_id="g2")
    studio_limits_release(user_id=1, generation_id="g1")
    studio_limits_acquire(user_id=1, generation_id="g2")  # the second of two this minute


def test_a_slot_nobody_released_expires(settings: Any, redis_url: str) -> None:
    settings.MACARON_STUDIO_MAX_CONCURRENT = 1
    studio_limits_acquire(user_id=1, generation_id="crashed")
    # Its worker died long ago: the slot's start time is past the generation time limit.
    stale = time.time() - settings.MACARON_GENERATION_TIME_LIMIT_SECONDS - 1000
    redis.Redis.from_url(redis_url).zadd("macaron:studio:active:1", {"crashed": stale})
    studio_limits_acquire(user_id=1, generation_id="next")
    assert limits.STUDIO_SLOT_GRACE_SECONDS < 1000


class _Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def time(self) -> float:
        return self.now


def test_the_rate_counts_the_last_sixty_seconds_not_the_clocks_minute(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two starts a second apart across a minute's boundary: a fixed window would let the
    second through; the designer was told one a minute."""
    settings.MACARON_STUDIO_RATE_PER_MINUTE = 1
    settings.MACARON_STUDIO_MAX_CONCURRENT = 100
    clock = _Clock(1_800_000_119.5)
    monkeypatch.setattr(limits, "time", clock)
    studio_limits_acquire(user_id=1, generation_id="g1")
    clock.now += 1.0
    with pytest.raises(RateLimited) as refused:
        studio_limits_acquire(user_id=1, generation_id="g2")
    assert refused.value.retry_after == 60
    clock.now += 59.5
    studio_limits_acquire(user_id=1, generation_id="g2")
    with pytest.raises(RateLimited):
        studio_limits_acquire(user_id=1, generation_id="g3")
