"""Thirty seconds of `bench/soak.py` on the real stack: 50 studio WebSockets, 8 of them
generating back to back. Every batch arrives in order, every watcher's text ends as the row's,
and no process grows by more than a little."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bench.soak import soak
from studio.stack import Stack, free_port, new_stack

pytestmark = pytest.mark.stack


@pytest.fixture
def roomy_web(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """A second Daphne on the stack's database, Redis and worker, whose per-user limits let
    one designer run eight generations at once, a hundred a minute and more."""
    extra = {k: stack.env[k] for k in ("DATABASE_URL", "REDIS_URL")}
    limits = {"MACARON_STUDIO_RATE_PER_MINUTE": "10000", "MACARON_STUDIO_MAX_CONCURRENT": "8"}
    web = new_stack(tmp_path_factory.mktemp("roomy-web"), {**extra, **limits})
    try:
        web.start_daphne(free_port())
        # Memory is measured on this stack's services: its Daphne, and the shared worker.
        web.services += [s for s in stack.services if s.name == "worker"]
        yield web
    finally:
        web.services = [s for s in web.services if s.name == "daphne"]
        web.stop()


def test_fifty_sockets_for_thirty_seconds_lose_and_reorder_nothing(roomy_web: Stack) -> None:
    # A designer of its own: the hundreds of starts a minute it makes would otherwise still
    # fill the sliding window, in the shared Redis, of the designer every other stack test uses.
    result = soak(roomy_web, seconds=30, sockets=50, generating=8, username="soak-designer")
    assert result.generations >= 8, result
    assert result.batches > 0, result
    assert (result.out_of_order, result.mismatched, result.unfinished_watchers) == (0, 0, 0)
    assert result.errors == [], result.errors
    for name, start in result.rss_mb_start.items():
        # Flat: well within the noise of a warm process, far from a leak per batch.
        assert result.rss_mb_end[name] <= start * 1.10 + 20, (name, result)
