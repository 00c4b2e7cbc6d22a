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

from ui4a.aggregate import run_query
from ui4a.catalog import MAX_DATASETS
from ui4a.limits import DEFAULT_LIMITS, Limits, check_value
from ui4a.problems import Problem
from ui4a.queries import Result, check_query, is_query, parse_query
from ui4a.tables import Table
from ui4a.tree import pointer

# Not part of the format the model writes (the schema has no such key, validation reports it):
# only resolve_data puts it in, on the copy it renders from.
DATA_NOTES_KEY = "data_notes"
NOTE_MAX = 160
DEFAULT_DATA_BYTES = 256 * 1024
# The work one view may cost: every query reads its whole table once, so a view reads at
# most this many rows in all (a few large datasets), whatever a hand-written spec asks.
DEFAULT_MAX_ROWS_READ = 1_000_000
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
    max_rows_read: int = DEFAULT_MAX_ROWS_READ,
) -> Resolved:
    """`spec` with every query in its "data" replaced by the rows it selects.

    The rows of all queries together take at most `max_bytes` of JSON, and never more than
    leaves the whole spec within `limits` (so it still renders). A query with a problem
    (unknown dataset or column, wrong type for its aggregate...) becomes an empty dataset with
    a note, or, when `partial` (a spec still streaming, whose query may be half written),
    stays as it is so the view shows its placeholder; so does the last entry of a partial
    spec, which may still be growing. `cache` (one dict per stream, with the same `tables`
    each frame) keeps the results of queries already evaluated, so resolving every streamed
    frame costs each query once. The queries read at most `max_rows_read` rows in all (and
    at most MAX_DATASETS queries run); one that would read more is refused with a note.
    Raises SpecTooLarge, before any work, when the spec itself is over `limits`. The input is
    never modified.
    """
    check_value(spec, limits)
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
    work = _Work(max_rows_read)
    for name, entry in data.items():
        if not is_query(entry) or (partial and name == last):
            new_data[name] = entry
            continue
        result, found = _evaluate(name, entry, tables, cache, work)
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


@dataclass
class _Work:
    """What the queries of one view have cost so far, against its budget."""

    max_rows_read: int
    queries: int = 0
    rows_read: int = 0

    def refusal(self, table: Table, where: str) -> Problem | None:
        """Why the next query, over `table`, may not run; None when it may (and is counted)."""
        if self.queries >= MAX_DATASETS:
            return Problem(where, "too_large", f"at most {MAX_DATASETS} queries in one view")
        if self.rows_read + len(table.rows) > self.max_rows_read:
            return Problem(
                where,
                "too_large",
                f"reading {table.name!r} would take this view past "
                f"{self.max_rows_read:,} rows read",
            )
        self.queries += 1
        self.rows_read += len(table.rows)
        return None


def _evaluate(
    name: str,
    entry: object,
    tables: Mapping[str, Table],
    cache: MutableMapping[str, tuple[Table, Result]] | None,
    work: _Work,
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
    # Keyed by the parsed query; the entry holds its table, so a new table (a re-upload) is
    # never answered from an old one's result.
    key = repr(query)
    hit = cache.get(key) if cache is not None else None
    if hit is not None and hit[0] is table:
        return hit[1], []
    refused = work.refusal(table, pointer(path))
    if refused is not None:
        return None, [refused]
    result = run_query(query, table)
    if cache is not None:
        cache[key] = (table, result)
    return result, []


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
