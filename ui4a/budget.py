"""How much a spec draws when rendered, counted before drawing it.

A list draws its children once per row plus once for the template the runtime clones, and lists
nest, so a few kilobytes of spec can multiply into tens of megabytes of HTML and many seconds of
CPU. The spec limits (ui4a/limits.py) count spec nodes; this counts rendered ones, from the
spec's shape and its datasets' row counts, in time linear in the spec. Validation reports a spec
over the budget, and rendering shows a notice instead of drawing it; the renderer also counts
what it actually draws, so nothing this count misses gets past the same budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ui4a import registry
from ui4a.queries import MAX_QUERY_ROWS
from ui4a.tree import children

# An ordinary view draws a few hundred nodes and tens of kilobytes; a list over a query's
# MAX_QUERY_ROWS rows with a dozen nodes per item still fits. Drawing costs about 50 us a node.
MAX_RENDERED_NODES = 20_000
MAX_RENDERED_BYTES = 4 * 1024 * 1024


def rendered_nodes(spec: object) -> int:
    """An upper bound on the nodes rendering `spec` draws (filters only ever draw fewer)."""
    root = spec.get("root") if isinstance(spec, dict) else None
    if not isinstance(root, dict):
        return 0
    data = spec.get("data") if isinstance(spec, dict) else None
    return _count(root, data if isinstance(data, dict) else {})


def over_budget(spec: object) -> str:
    """Why `spec` is too large to render, or "" when it fits."""
    count = rendered_nodes(spec)
    if count > MAX_RENDERED_NODES:
        return (
            f"it would draw {count:,} nodes, over the {MAX_RENDERED_NODES:,} a view may draw"
            " (nested lists draw their items once per row of each list above them)"
        )
    return ""


def _count(node: Mapping[str, Any], data: Mapping[str, Any]) -> int:
    # Recursion is bounded: check_value holds every spec to limits.max_depth.
    component = registry.get(node.get("t"))
    if component is None or not component.children:
        return 1
    below = sum(_count(kid, data) for kid in children(dict(node)) if isinstance(kid, dict))
    if component.name == "list":
        name = node.get("data")
        rows = data.get(name) if isinstance(name, str) else None
        times = min(len(rows), MAX_QUERY_ROWS) if isinstance(rows, list) else 0
        return 1 + (times + 1) * below
    return 1 + below
