"""The prefix-cache counter vLLM reports to: sums lookups and hits, and gives the hit rate."""

from __future__ import annotations

from types import SimpleNamespace

from inference.serving.prefix_cache import PrefixCacheCounter, PrefixCacheStats


def test_it_sums_the_prefix_cache_stats_vllm_records_after_each_step() -> None:
    counter = PrefixCacheCounter()
    logger = counter.logger_factory()(SimpleNamespace(), 0)  # as vLLM builds it, per engine
    logger.log_engine_initialized()
    start = counter.snapshot()
    logger.record(SimpleNamespace(prefix_cache_stats=SimpleNamespace(queries=2048, hits=0)), None)
    logger.record(None, None)  # steps without scheduler stats count nothing
    logger.record(
        SimpleNamespace(prefix_cache_stats=SimpleNamespace(queries=2048, hits=1920)), None
    )
    since = counter.snapshot() - start
    assert since == PrefixCacheStats(queries=4096, hits=1920)
    assert since.hit_rate == 1920 / 4096
    assert PrefixCacheStats(0, 0).hit_rate == 0.0
