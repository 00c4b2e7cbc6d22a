"""Counts vLLM's prefix-cache lookups and hits, so a benchmark can report the hit rate.

vLLM hands `SchedulerStats.prefix_cache_stats` (prompt tokens looked up, and how many were
found cached) to its stat loggers after every scheduler step; this logger only sums them.
Any stat logger turns vLLM's per-step stats on, a small cost, so the engine adds it only when
asked (`VllmEngine(..., count_prefix_cache=True)`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class PrefixCacheStats:
    queries: int  # prompt tokens looked up in the cache
    hits: int  # of those, tokens whose KV was already cached

    @property
    def hit_rate(self) -> float:
        return self.hits / self.queries if self.queries else 0.0

    def __sub__(self, earlier: PrefixCacheStats) -> PrefixCacheStats:
        return PrefixCacheStats(self.queries - earlier.queries, self.hits - earlier.hits)

    def __add__(self, other: PrefixCacheStats) -> PrefixCacheStats:
        return PrefixCacheStats(self.queries + other.queries, self.hits + other.hits)


class PrefixCacheCounter:
    """Running totals since the engine started; `logger_factory` is what vLLM is given."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # vLLM records on the engine loop, readers are elsewhere
        self._queries = 0
        self._hits = 0

    def add(self, queries: int, hits: int) -> None:
        with self._lock:
            self._queries += queries
            self._hits += hits

    def snapshot(self) -> PrefixCacheStats:
        with self._lock:
            return PrefixCacheStats(self._queries, self._hits)

    def logger_factory(self) -> Any:
        """A per-engine stat logger factory, as `AsyncLLM.from_engine_args(stat_loggers=...)`
        takes it: called with (vllm_config, engine_index)."""
        from vllm.v1.metrics.loggers import StatLoggerBase

        counter = self

        class _PrefixCacheLogger(StatLoggerBase):  # type: ignore[misc]
            def __init__(self, vllm_config: Any, engine_index: int = 0) -> None:
                pass

            def record(
                self,
                scheduler_stats: Any,
                iteration_stats: Any,
                mm_cache_stats: Any = None,
                engine_idx: int = 0,
            ) -> None:
                stats = getattr(scheduler_stats, "prefix_cache_stats", None)
                if stats is not None:
                    counter.add(stats.queries, stats.hits)

            def log_engine_initialized(self) -> None:
                pass

        return _PrefixCacheLogger
