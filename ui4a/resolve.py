"""Resolving a spec's queries into rows before it renders, within a byte budget per view.

Every server-side render of a spec that reads uploaded datasets goes through `resolve_data`:
it evaluates each query (ui4a/queries.py) over the tables given, inlines the rows, and keeps
the inlined JSON under a budget. A result over its share is paged to the first rows that fit,
and a note says so ("Showing 1,200 of 10,000 rows"), which tables, lists and charts show
beside themselves: the resolved spec carries the notes under DATA_NOTES_KEY, so callers only
pass `resolved.spec` on to `render_body` or `render_document`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from ui4a.limits import DEFAULT_LIMITS, Limits
from ui4a.problems import Problem
from ui4a.queries import Result, check_query, is_query, parse_query, run_query
from ui4a.tables import Table
from ui4a.tree import pointer

# Not part of the format the model writes (the schema has no such key, validation reports it):
# only resolve_data puts it in, on the copy it renders from.
DATA_NOTES_KEY = "data_notes"
NOTE_MAX = 160
DEFAULT_DATA_BYTES = 256 * 1024
# Room kept in the view's limit for the notes and the JSON around the inlined rows.
ENVELOPE_BYTES = 2048


@dataclass(frozen=True)
class Resolved:
    """A spec with its queries replaced by rows (None when the input was no spec at all)."""

    spec: dict[str, Any] | None
    problems: list[Problem] = field(default_factory=list)
    # What the view says about a dataset, by name: paged, or why it could not load.
    notes: dict[str, str] = field(default_factory=dict)


def json_bytes(value: object) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def resolve_data(
    spec: object,
    tables: Mapping[str, Table],
    *,
    max_bytes: int = DEFAULT_DATA_BYTES,
    partial: bool = False,
    limits: Limits = DEFAULT_LIMITS,
    cache: MutableMapping[str, tuple[Table, Result]] | None = None,
) -> Resolved:
    """`spec` with every query in its "data" replaced by the rows it selects.

    The rows of all queries together take at most `max_bytes` of JSON, and never more than
    leaves the whole spec within `limits` (so it still renders). A query with a problem
    (unknown dataset or column, wrong type for its aggregate...) becomes an empty dataset with
    a note, or, when `partial` (a spec still streaming, whose query may be half written),
    stays as it is so the view shows its placeholder; so does the last entry of a partial
    spec, which may still be growing. `cache` (one dict per stream, with the same `tables`
    each frame) keeps the results of queries already evaluated, so resolving every streamed
    frame costs each query once. The input is never modified.
    """
    if not isinstance(spec, dict):
        return Resolved(None)
    data = spec.get("data")
    if not isinstance(data, dict) or not any(is_query(e) for e in data.values()):
        return Resolved(dict(spec))
    problems: list[Problem] = []
    notes: dict[str, str] = {}
    results: dict[str, Result] = {}
    new_data: dict[str, Any] = {}
    # While a spec streams, entries arrive in order: all but the last are whole, and the last
    # may be a query half written ("group": "date" before ":month" arrives), so it waits.
    last = list(data)[-1]
    for name, entry in data.items():
        if not is_query(entry) or (partial and name == last):
            new_data[name] = entry
            continue
        result, found = _evaluate(name, entry, tables, cache)
        problems += found
        if result is not None:
            results[name] = result
            new_data[name] = []  # filled in below, once the budget is shared out
        elif partial:
            new_data[name] = entry
        else:
            new_data[name] = []
            notes[name] = _clip(f"Can't show this data: {found[0].message}")
    out = {k: v for k, v in spec.items() if k != DATA_NOTES_KEY}
    out["data"] = new_data
    room = limits.max_bytes - json_bytes(out) - ENVELOPE_BYTES
    budget = max(0, min(max_bytes, room))
    for name, rows in _share(results, budget).items():
        new_data[name] = rows
        total = results[name].total
        if len(rows) < total:
            notes[name] = f"Showing {len(rows):,} of {total:,} rows"
    if notes:
        out[DATA_NOTES_KEY] = notes
    return Resolved(out, problems, notes)


def _evaluate(
    name: str,
    entry: object,
    tables: Mapping[str, Table],
    cache: MutableMapping[str, tuple[Table, Result]] | None,
) -> tuple[Result | None, list[Problem]]:
    path = ("data", name)
    query, found = parse_query(entry, path)
    if query is None or found:
        return None, found
    table = tables.get(query.source)
    if table is None:
        where = pointer((*path, "from"))
        return None, [Problem(where, "unknown_dataset", f"no uploaded dataset {query.source!r}")]
    found = check_query(query, table, path)
    if found:
        return None, found
    if cache is None:
        return run_query(query, table), []
    # Keyed by the parsed query; the entry holds its table, so a new table (a re-upload) is
    # never answered from an old one's result.
    key = repr(query)
    hit = cache.get(key)
    if hit is None or hit[0] is not table:
        hit = cache[key] = (table, run_query(query, table))
    return hit[1], []


def _clip(text: str) -> str:
    return text if len(text) <= NOTE_MAX else text[: NOTE_MAX - 1] + "…"


def _share(results: Mapping[str, Result], budget: int) -> dict[str, list[Any]]:
    """Rows of each result within `budget` bytes in all: smallest results first, each taking
    all it needs up to an even share of what is left, so a few aggregates always fit whole
    and one huge raw query cannot starve them; whatever does not fit is paged from the end."""
    sizes = {name: [json_bytes(row) + 1 for row in r.rows] for name, r in results.items()}
    order = sorted(results, key=lambda name: (sum(sizes[name]), name))
    left = budget
    out: dict[str, list[Any]] = {}
    for i, name in enumerate(order):
        share = left // (len(order) - i)
        used, kept = 2, 0  # the brackets
        for size in sizes[name]:
            if used + size > share:
                break
            used, kept = used + size, kept + 1
        out[name] = results[name].rows[:kept]
        left = max(0, left - used)
    return out
