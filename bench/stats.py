"""Order statistics the benches report beside their medians."""

from __future__ import annotations


def p95(values: list[float]) -> float:
    """The 95th percentile, as the nearest lower rank of the sorted values."""
    return sorted(values)[int(0.95 * (len(values) - 1))]
