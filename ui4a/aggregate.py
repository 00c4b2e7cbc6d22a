"""Evaluating a query (ui4a/queries.py) over a table: one pass over the rows to group them,
builtins over each group's cells to aggregate, one sort, so a 100,000-row table resolves in
well under a second. Output order is deterministic: group keys ascending (missing last)
unless the query sorts.
"""

from __future__ import annotations

import datetime
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ui4a.fields import is_number
from ui4a.queries import MAX_QUERY_ROWS, AggregateOp, Bucket, Query, Result, Row
from ui4a.tables import Table

# A mean reads best at two decimals; a small one keeps three significant digits instead.
MEAN_DECIMALS = 2
SMALL_SIGNIFICANT = 3
# Sums of floats keep this many significant digits: enough for money, and no binary noise
# such as 0.30000000000000004.
SUM_SIGNIFICANT = 12

_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


def run_query(query: Query, table: Table) -> Result:
    """Evaluate a query that `check_query` found nothing wrong with."""
    rows: Sequence[Mapping[str, Any]] = _grouped(query, table.rows) if query.grouped else table.rows
    if query.sort is not None:
        rows = _sorted(rows, query.sort, query.descending)
    if query.limit is not None:
        rows = rows[: query.limit]
    total = len(rows)
    rows = rows[:MAX_QUERY_ROWS]
    if query.grouped:
        return Result([dict(row) for row in rows], total)
    names = query.output_columns(table)
    return Result([{name: _cell(row.get(name)) for name in names} for row in rows], total)


def _cell(value: object) -> object:
    """A cell as JSON can carry it: what is not a finite scalar becomes missing."""
    if isinstance(value, (str, bool)) or is_number(value):
        return value
    return None


# Grouping -------------------------------------------------------------------------------------


def _bucket_of(bucket: Bucket) -> Callable[[object], object]:
    """The bucket label of a date cell, memoised per distinct day (a table has few)."""
    memo: dict[str, str | None] = {}

    def label(value: object) -> object:
        if not isinstance(value, str):
            return None
        day = value[:10]
        try:
            return memo[day]
        except KeyError:
            memo[day] = found = _label(day, bucket)
            return found

    return label


def _label(day: str, bucket: Bucket) -> str | None:
    if not _DAY.fullmatch(day):
        return None
    try:
        date = datetime.date.fromisoformat(day)
    except ValueError:
        return None
    if bucket == "day":
        return day
    if bucket == "week":
        return (date - datetime.timedelta(days=date.weekday())).isoformat()
    if bucket == "month":
        return day[:7]
    return day[:4]


def _aggregate_values(op: AggregateOp, values: list[Any]) -> object:
    """One aggregate of one group's cells (`values` is the column, or the rows for a bare
    count). Builtins over a list run far faster than a call per cell."""
    if op == "count":
        return len(values)
    if op in ("min", "max"):
        # Numbers and dates (ISO text) each compare within their kind; numbers win if mixed.
        numbers = [v for v in values if type(v) in (int, float) and is_number(v)]
        pool: list[Any] = numbers or [v for v in values if isinstance(v, str)]
        if not pool:
            return None
        return min(pool) if op == "min" else max(pool)
    numbers = [v for v in values if type(v) in (int, float)]
    total = _sum(numbers)
    if op == "sum" or total is None:
        return total
    return _tidy_mean(total / len(numbers)) if numbers else None


def _sum(numbers: list[int | float]) -> int | float | None:
    """Exact sum (fsum for floats), trimmed of binary noise; None when it is not finite."""
    if all(type(v) is int for v in numbers):
        total: int | float = sum(numbers)
        return total if is_number(total) else None
    try:
        exact = math.fsum(numbers)
    except (OverflowError, ValueError):  # overflow, or inf - inf in the input
        return None
    if not math.isfinite(exact):
        return None
    return float(f"{exact:.{SUM_SIGNIFICANT}g}")


def _tidy_mean(value: float) -> float | None:
    if not math.isfinite(value):
        return None
    if abs(value) >= 1 or value == 0:
        return round(value, MEAN_DECIMALS)
    return float(f"{value:.{SMALL_SIGNIFICANT}g}")


def _group_rows(
    query: Query, rows: Sequence[Mapping[str, Any]]
) -> dict[tuple[object, ...], list[Mapping[str, Any]]]:
    """The rows of each group, in one pass: a dict lookup and an append per row."""
    groups: dict[tuple[object, ...], list[Mapping[str, Any]]] = {}
    key: tuple[object, ...]
    reads = [(k.column, _bucket_of(k.bucket) if k.bucket else _cell) for k in query.group]
    if not reads:
        groups[()] = list(rows)  # no group: one row of totals, even over no rows
        return groups
    if len(reads) == 1:
        ((column, read),) = reads
        for row in rows:
            key = (read(row.get(column)),)
            found = groups.get(key)
            if found is None:
                groups[key] = [row]
            else:
                found.append(row)
        return groups
    (first, read_first), (second, read_second) = reads
    for row in rows:
        key = (read_first(row.get(first)), read_second(row.get(second)))
        found = groups.get(key)
        if found is None:
            groups[key] = [row]
        else:
            found.append(row)
    return groups


def _grouped(query: Query, rows: Sequence[Mapping[str, Any]]) -> list[Row]:
    groups = _group_rows(query, rows)
    names = [k.column for k in query.group]
    out: list[Row] = []
    for key in sorted(groups, key=_group_order):
        members = groups[key]
        group: Row = dict(zip(names, key, strict=True))
        for agg in query.aggregates:
            column = agg.column
            if column is None:
                values: list[Any] = members
            else:
                values = [v for v in (r.get(column) for r in members) if v is not None]
            group[agg.output] = _aggregate_values(agg.op, values)
        out.append(group)
    return out


# Sorting --------------------------------------------------------------------------------------


def _order(value: object) -> tuple[int, Any]:
    """A sort key that orders any cells: numbers, then text, then booleans, each by value."""
    if isinstance(value, bool):
        return 2, value
    if is_number(value):
        return 0, value
    if isinstance(value, str):
        return 1, value
    return 3, 0


def _group_order(key: tuple[object, ...]) -> tuple[tuple[bool, tuple[int, Any]], ...]:
    # Missing keys (None) sort last in each position.
    return tuple((v is None, _order(v)) for v in key)


def _sorted(
    rows: Sequence[Mapping[str, Any]], column: str, descending: bool
) -> list[Mapping[str, Any]]:
    """Stable sort on one column, missing values last whichever the direction."""
    present = [r for r in rows if r.get(column) is not None]
    missing = [r for r in rows if r.get(column) is None]
    present.sort(key=lambda r: _order(r.get(column)), reverse=descending)
    return present + missing
