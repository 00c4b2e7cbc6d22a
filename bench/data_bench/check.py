"""Which expectations a resolved spec meets: a chart whose x/y points equal the expected series
(same labels, values within a cent or 0.5%), or a table showing exactly the newest rows."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bench.data_bench import expect


def _nodes(node: Any) -> Iterator[dict[str, Any]]:
    if isinstance(node, dict):
        yield node
        for kid in node.get("c") or []:
            yield from _nodes(kid)


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= max(0.01, 0.005 * abs(b))


def chart_series(spec: dict[str, Any], node: dict[str, Any]) -> dict[str, float] | None:
    rows = (spec.get("data") or {}).get(node.get("data"))
    ys = node.get("y") or []
    if not isinstance(rows, list) or not ys:
        return None
    try:
        return {str(row[node["x"]]): float(row[ys[0]]) for row in rows}
    except (KeyError, TypeError, ValueError):
        return None


def meets_chart(spec: dict[str, Any], wanted: dict[str, float]) -> bool:
    for node in _nodes(spec.get("root")):
        if node.get("t") != "chart":
            continue
        got = chart_series(spec, node)
        if got is None or set(got) != set(wanted):
            continue
        if all(_close(got[k], v) for k, v in wanted.items()):
            return True
    return False


def meets_table(spec: dict[str, Any], by: str, newest: list[str]) -> bool:
    for node in _nodes(spec.get("root")):
        if node.get("t") != "table":
            continue
        rows = (spec.get("data") or {}).get(node.get("data"))
        if isinstance(rows, list) and rows and all(isinstance(r, dict) for r in rows):
            shown = sorted((str(r.get(by, ""))[:10] for r in rows), reverse=True)
            if shown == [d[:10] for d in newest]:
                return True
    return False


def judge(
    resolved: dict[str, Any] | None, expects: list[dict[str, Any]], rows: list[dict[str, str]]
) -> list[bool]:
    """One verdict per expectation; `rows` are the asked file's rows (expect.read_rows)."""
    if resolved is None:
        return [False] * len(expects)
    verdicts = []
    for item in expects:
        if "chart" in item:
            verdicts.append(meets_chart(resolved, expect.series(rows, item["chart"])))
        else:
            table = item["table"]
            verdicts.append(meets_table(resolved, table["by"], expect.latest(rows, table)))
    return verdicts
