"""Queries over a designer's datasets: the shape a spec's "data" entry takes when it reads an
uploaded table instead of listing records, its checks, and its evaluation.

`{"from": "sales", "group": "date:month", "agg": {"revenue": "sum"}, "sort": "-revenue",
"limit": 12}`: group by a column or a date bucket (up to two keys), aggregate with
sum/mean/count/min/max, sort, keep the top N. Without "group" the query returns raw rows
("columns" picks them). `parse_query` checks the shape alone (what validation can do without
tables), `check_query` checks it against the table, `repair_query` fixes what it can;
ui4a/aggregate.py evaluates it.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from ui4a.fields import NAME_PATTERN
from ui4a.problems import Problem
from ui4a.tables import Column, Table
from ui4a.tree import Path, pointer

QUERY_KEYS = ("from", "group", "agg", "columns", "sort", "limit")
AggregateOp = Literal["sum", "mean", "count", "min", "max"]
AGGREGATES: tuple[AggregateOp, ...] = ("sum", "mean", "count", "min", "max")
Bucket = Literal["day", "week", "month", "year"]
BUCKETS: tuple[Bucket, ...] = ("day", "week", "month", "year")
MAX_GROUP_KEYS = 2
MAX_AGGREGATES = 6
MAX_QUERY_COLUMNS = 12
# Every name in a query: an uploaded dataset's or column's name (the studio allows 63
# characters), a bucket after it ("date:month"), or an aggregate ("sum:<column>").
QUERY_TEXT_MAX = 72
# The most rows one query may inline: `limit` goes up to it, and a result with more rows is
# cut to it with a note saying so (resolve.py). The runtime keeps the same number of rows.
MAX_QUERY_ROWS = 1000
Row = dict[str, Any]

_NAME_SCHEMA = {"type": "string", "maxLength": QUERY_TEXT_MAX}
_LIMIT_SCHEMA = {"type": "integer", "minimum": 1, "maximum": MAX_QUERY_ROWS}
# The fragment the model decodes a query under: the shape only, kept small because grammar
# compilation time grows with the schema; values are checked by `parse_query`.
QUERY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "from": _NAME_SCHEMA,
        "group": {
            "anyOf": [
                _NAME_SCHEMA,
                {"type": "array", "items": _NAME_SCHEMA, "maxItems": MAX_GROUP_KEYS},
            ]
        },
        "agg": {
            "type": "object",
            "additionalProperties": _NAME_SCHEMA,
            "maxProperties": MAX_AGGREGATES,
        },
        "columns": {"type": "array", "items": _NAME_SCHEMA, "maxItems": MAX_QUERY_COLUMNS},
        "sort": _NAME_SCHEMA,
        "limit": _LIMIT_SCHEMA,
    },
    "required": ["from"],
    "additionalProperties": False,
}

# The most names (datasets, columns, group keys, aggregates) `tables_query_schema` spells out.
# xgrammar compiles the tail's grammar per request, and its time grows with the names; a project
# past this decodes its queries by shape alone, as QUERY_SCHEMA, and `check_query` reads them.
MAX_GRAMMAR_NAMES = 3000
# What a bare aggregate ("revenue": "sum", the output named after its column) may do to a
# column of each type; "count" counts rows and needs no column.
_OPS_BY_TYPE: dict[str, tuple[AggregateOp, ...]] = {
    "number": AGGREGATES,
    "date": ("min", "max", "count"),
}


@dataclass(frozen=True)
class _Vocabulary:
    """The names a query over one table may use, where the grammar spells them out."""

    table: Table
    columns: list[str]
    group_keys: list[str]  # columns, and date columns with a bucket
    bare: dict[str, tuple[AggregateOp, ...]]  # a measured column: what it may be, as an output
    named: list[str]  # any other output: "count", or "<op>:<column>"

    @classmethod
    def of(cls, table: Table) -> _Vocabulary:
        columns = [c.name for c in table.columns]
        dated = [f"{c.name}:{b}" for c in table.columns if c.type == "date" for b in BUCKETS]
        bare = {c.name: _OPS_BY_TYPE[c.type] for c in table.columns if c.type in _OPS_BY_TYPE}
        named = [
            "count",
            *(f"count:{name}" for name in columns),  # the column's present values
            *(f"{op}:{name}" for name, ops in bare.items() for op in ops if op != "count"),
        ]
        return cls(table, columns, [*columns, *dated], bare, named)

    @property
    def size(self) -> int:
        return len(self.columns) + len(self.group_keys) + len(self.bare) + len(self.named)


def tables_query_schema(tables: Sequence[Table]) -> dict[str, Any]:
    """The query fragment for a project's datasets: a query reads one of them and names only
    its columns, buckets only its date columns and sums only its numbers, so a model decoding
    under it cannot invent a column (`check_query` still reads the rest, such as `sort`)."""
    vocabularies = [_Vocabulary.of(table) for table in tables]
    if not vocabularies or sum(v.size for v in vocabularies) > MAX_GRAMMAR_NAMES:
        return copy.deepcopy(QUERY_SCHEMA)
    options = [_query_schema(v) for v in vocabularies]
    return options[0] if len(options) == 1 else {"anyOf": options}


def _query_schema(names: _Vocabulary) -> dict[str, Any]:
    group_key = {"enum": names.group_keys}
    return {
        "type": "object",
        "properties": {
            "from": {"enum": [names.table.name]},
            "group": {
                "anyOf": [
                    group_key,
                    {"type": "array", "items": group_key, "maxItems": MAX_GROUP_KEYS},
                ]
            },
            "agg": {
                "type": "object",
                # Named after a measured column, an aggregate may be bare; any other output
                # names its column ("sum:price").
                "properties": {name: {"enum": list(ops)} for name, ops in names.bare.items()},
                "additionalProperties": {"enum": names.named},
                "maxProperties": MAX_AGGREGATES,
            },
            "columns": {
                "type": "array",
                "items": {"enum": names.columns},
                "maxItems": MAX_QUERY_COLUMNS,
            },
            "sort": _NAME_SCHEMA,
            "limit": _LIMIT_SCHEMA,
        },
        "required": ["from"],
        "additionalProperties": False,
    }


@dataclass(frozen=True)
class GroupKey:
    """A column to group by, or a date column cut into buckets; the output column keeps the
    source column's name ("date:month" makes a "date" column of "2025-03" labels)."""

    column: str
    bucket: Bucket | None = None


@dataclass(frozen=True)
class Aggregate:
    """An output column: `op` over `column` (None for `count` of rows)."""

    output: str
    op: AggregateOp
    column: str | None


@dataclass(frozen=True)
class Query:
    source: str
    group: tuple[GroupKey, ...] = ()
    aggregates: tuple[Aggregate, ...] = ()
    columns: tuple[str, ...] = ()
    sort: str | None = None
    descending: bool = False
    limit: int | None = None

    @property
    def grouped(self) -> bool:
        """Whether the result has one row per group (or one row of totals), not raw rows."""
        return bool(self.group or self.aggregates)

    def output_columns(self, table: Table) -> list[str]:
        if self.grouped:
            return [k.column for k in self.group] + [a.output for a in self.aggregates]
        return list(self.columns) or [c.name for c in table.columns]


@dataclass(frozen=True)
class Result:
    rows: list[Row]
    # How many rows the query gives before the MAX_QUERY_ROWS cut (after its own limit).
    total: int


def is_query(entry: object) -> bool:
    """A "data" entry that reads a dataset (an object), as opposed to inline records (a list)."""
    return isinstance(entry, dict)


def _column_name(value: object) -> bool:
    return isinstance(value, str) and 0 < len(value) <= QUERY_TEXT_MAX


def _group_key(text: str) -> GroupKey:
    column, sep, bucket = text.rpartition(":")
    if sep and bucket in BUCKETS and column:
        return GroupKey(column, bucket)  # type: ignore[arg-type,unused-ignore]  # checked above
    return GroupKey(text)


def _aggregate(output: str, text: str) -> Aggregate | None:
    op, sep, column = text.partition(":")
    if op not in AGGREGATES or (sep and not column):
        return None
    if not column:
        column = "" if op == "count" else output
    return Aggregate(output, op, column or None)  # type: ignore[arg-type,unused-ignore]


def parse_query(value: object, path: Path) -> tuple[Query | None, list[Problem]]:
    """The query a "data" entry describes, checked for shape only (no tables needed), and
    every problem with it. The query is None when the entry cannot be read as one at all."""
    at = pointer(path)
    if not isinstance(value, dict):
        return None, [Problem(at, "wrong_type", "a query is an object")]
    found = [
        Problem(pointer((*path, key)), "unknown_field", f"a query has no {key!r}")
        for key in value
        if key not in QUERY_KEYS
    ]
    source = value.get("from")
    if source is None:
        found.append(Problem(pointer((*path, "from")), "missing_field", 'a query needs "from"'))
    elif not _column_name(source):
        found.append(
            Problem(pointer((*path, "from")), "bad_value", '"from" names an uploaded dataset')
        )
    group, more = _parse_group(value.get("group"), (*path, "group"))
    found += more
    aggregates, more = _parse_aggregates(value.get("agg"), (*path, "agg"))
    found += more
    columns, more = _parse_columns(value.get("columns"), (*path, "columns"))
    found += more
    if columns and (group or aggregates):
        found.append(
            Problem(
                pointer((*path, "columns")),
                "bad_value",
                '"columns" picks raw rows; a grouped query outputs its group keys and "agg"',
            )
        )
    outputs = [k.column for k in group] + [a.output for a in aggregates]
    for name in sorted({n for n in outputs if outputs.count(n) > 1}):
        found.append(Problem(pointer((*path, "agg")), "bad_value", f"two outputs named {name!r}"))
    sort, descending = None, False
    raw_sort = value.get("sort")
    if raw_sort is not None:
        text = raw_sort if isinstance(raw_sort, str) else ""
        descending = text.startswith("-")
        sort = text[1:] if descending else text
        if not _column_name(sort):
            found.append(
                Problem(pointer((*path, "sort")), "bad_value", '"sort" is a column, "-" first')
            )
            sort = None
    limit = value.get("limit")
    if limit is not None and (
        not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_QUERY_ROWS
    ):
        found.append(
            Problem(
                pointer((*path, "limit")),
                "bad_value",
                f'"limit" is a whole number from 1 to {MAX_QUERY_ROWS}',
            )
        )
        limit = None
    if not isinstance(source, str) or not _column_name(source):
        return None, found
    query = Query(source, group, aggregates, columns, sort, descending, limit)
    return query, found


def _parse_group(value: object, path: Path) -> tuple[tuple[GroupKey, ...], list[Problem]]:
    if value is None:
        return (), []
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list) or not all(_column_name(i) for i in items) or not items:
        problem = '"group" is a column, "<date column>:day|week|month|year", or a list of them'
        return (), [Problem(pointer(path), "wrong_type", problem)]
    if len(items) > MAX_GROUP_KEYS:
        return (), [Problem(pointer(path), "too_large", f"at most {MAX_GROUP_KEYS} group keys")]
    keys = tuple(_group_key(i) for i in items)
    if len({k.column for k in keys}) < len(keys):
        return (), [Problem(pointer(path), "bad_value", "a column is grouped by twice")]
    return keys, []


def _parse_aggregates(value: object, path: Path) -> tuple[tuple[Aggregate, ...], list[Problem]]:
    if value is None:
        return (), []
    if not isinstance(value, dict):
        return (), [Problem(pointer(path), "wrong_type", '"agg" maps output columns to "sum"…')]
    found: list[Problem] = []
    if len(value) > MAX_AGGREGATES:
        found.append(Problem(pointer(path), "too_large", f"at most {MAX_AGGREGATES} aggregates"))
    out: list[Aggregate] = []
    for output, text in list(value.items())[:MAX_AGGREGATES]:
        at = pointer((*path, output))
        if not NAME_PATTERN.fullmatch(output):
            found.append(Problem(at, "bad_value", "an output column's name is a word"))
            continue
        one = (
            _aggregate(output, text)
            if isinstance(text, str) and len(text) <= QUERY_TEXT_MAX
            else None
        )
        if one is None:
            found.append(
                Problem(at, "bad_value", 'an aggregate is sum|mean|count|min|max or "sum:<col>"')
            )
            continue
        out.append(one)
    return tuple(out), found


def _parse_columns(value: object, path: Path) -> tuple[tuple[str, ...], list[Problem]]:
    if value is None:
        return (), []
    if not isinstance(value, list) or not all(_column_name(c) for c in value):
        return (), [Problem(pointer(path), "wrong_type", '"columns" is a list of column names')]
    if len(value) > MAX_QUERY_COLUMNS:
        return (), [Problem(pointer(path), "too_large", f"at most {MAX_QUERY_COLUMNS} columns")]
    return tuple(value), []


def check_query(query: Query, table: Table, path: Path) -> list[Problem]:
    """What is wrong with a (well-shaped) query against the table it reads."""
    found: list[Problem] = []

    def column(name: str, where: Path) -> Column | None:
        col = table.column(name)
        if col is None:
            problem = f"dataset {table.name!r} has no column {name!r}"
            found.append(Problem(pointer(where), "bad_value", problem))
        return col

    for i, key in enumerate(query.group):
        where = (*path, "group", i) if len(query.group) > 1 else (*path, "group")
        col = column(key.column, where)
        if col is not None and key.bucket is not None and col.type != "date":
            found.append(
                Problem(
                    pointer(where),
                    "bad_value",
                    f"{key.bucket!r} buckets need a date column; {key.column!r} is {col.type}",
                )
            )
    for agg in query.aggregates:
        if agg.column is None:
            continue
        col = column(agg.column, (*path, "agg", agg.output))
        if col is None:
            continue
        allowed = ("number",) if agg.op in ("sum", "mean") else ("number", "date")
        if agg.op != "count" and col.type not in allowed:
            found.append(
                Problem(
                    pointer((*path, "agg", agg.output)),
                    "bad_value",
                    f"{agg.op!r} needs a {' or '.join(allowed)} column; "
                    f"{agg.column!r} is {col.type}",
                )
            )
    for i, name in enumerate(query.columns):
        column(name, (*path, "columns", i))
    if query.sort is not None and query.sort not in query.output_columns(table):
        found.append(
            Problem(
                pointer((*path, "sort")),
                "bad_value",
                f"{query.sort!r} is not a column of the result",
            )
        )
    return found


# Repair ---------------------------------------------------------------------------------------

# Names other query languages use for our aggregates.
AGGREGATE_ALIASES = {"avg": "mean", "average": "mean", "total": "sum", "minimum": "min"}
AGGREGATE_ALIASES |= {"maximum": "max", "n": "count"}


def repair_query(entry: dict[str, Any], where: str, fixes: list[str]) -> None:
    """Fix, in place, what a query gets wrong without guessing: an aggregate in capitals or
    named as SQL does ("AVG"), a limit written as "12" or 12.0, a single column for a list."""
    agg = entry.get("agg")
    if isinstance(agg, dict):
        for output, text in agg.items():
            if not isinstance(text, str):
                continue
            op, sep, column = text.partition(":")
            wanted = AGGREGATE_ALIASES.get(op.lower(), op.lower())
            if wanted != op and wanted in AGGREGATES:
                agg[output] = f"{wanted}{sep}{column}"
                fixes.append(f"{where}/agg/{output}: read {op!r} as {wanted!r}")
    limit = entry.get("limit")
    number: object = limit
    if isinstance(limit, str) and limit.strip().isdigit():
        number = int(limit.strip())
    elif isinstance(limit, float) and limit.is_integer():
        number = int(limit)
    if number is not limit:
        entry["limit"] = number
        fixes.append(f"{where}/limit: read {limit!r} as {number!r}")
    columns = entry.get("columns")
    if isinstance(columns, str):
        entry["columns"] = [columns]
        fixes.append(f"{where}/columns: wrapped a single column in a list")
