"""Grounds a spec's queries in the tables it runs on: names the model got nearly right become the
real ones.

A small model reads a profile and writes `"group": "date:month"` for a column called
`checkout_day`, or `"late_fees"` for `late_fee`. Each query's dataset, its columns and the
columns its table, list and chart nodes read are matched to what exists: an exact name stays;
otherwise a name with one plausible owner (the only date column, for a date bucket; the only
number column, for a sum) or a close spelling (difflib, cutoff CLOSE) is renamed everywhere the
spec uses it, and each rename is reported as a fix. A name with no plausible match is left for
`resolve_data` to report. Cost is linear in the spec's size times the columns of a table.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ui4a.queries import AGGREGATES, BUCKETS, is_query
from ui4a.tables import Column, ColumnType, Table
from ui4a.tree import walk

CLOSE = 0.6
DATE_WORDS = frozenset(("date", "day", "time", "month", "week", "year", "when", "timestamp"))
# Node fields that name columns of the dataset the node reads.
NAME_FIELDS = ("x", "y", "cols")


@dataclass
class Grounded:
    spec: Any
    fixes: list[str] = field(default_factory=list)


def _looks_like_a_date(name: str) -> bool:
    words = name.lower().replace("-", "_").split("_")
    return bool(DATE_WORDS & set(words)) or name.lower().endswith(("_on", "_at"))


def _nearest(name: str, columns: list[Column], wanted: ColumnType | None = None) -> str | None:
    """The column `name` most plausibly means: itself, a close spelling (of the wanted type
    when one is known), or the only date column for a name that reads as a date."""
    names = [c.name for c in columns]
    if name in names:
        return name
    typed = [c.name for c in columns if wanted is None or c.type == wanted]
    close = difflib.get_close_matches(name, typed or names, n=1, cutoff=CLOSE)
    if close:
        return close[0]
    dates = [c.name for c in columns if c.type == "date"]
    if len(dates) == 1 and (wanted == "date" or _looks_like_a_date(name)):
        return dates[0]
    return None


class _Renames:
    """The renames made in one query, applied afterwards to the nodes that read its result."""

    def __init__(self, where: str, fixes: list[str]) -> None:
        self.where = where
        self.fixes = fixes
        self.names: dict[str, str] = {}

    def take(self, old: str, new: str | None, what: str) -> str:
        if new is None or new == old:
            return old
        self.names[old] = new
        self.fixes.append(f"{self.where}: read {what} {old!r} as {new!r}")
        return new


def _ground_group(key: object, table: Table, renames: _Renames) -> object:
    if not isinstance(key, str):
        return key
    column, sep, bucket = key.partition(":")
    if sep and bucket not in BUCKETS:  # "clinic:clinic": no bucket but a repeated name
        renames.fixes.append(f"{renames.where}: read group {key!r} as {column!r}")
        sep = bucket = ""
    wanted: ColumnType | None = "date" if sep else None
    found = renames.take(column, _nearest(column, list(table.columns), wanted), "column")
    return f"{found}{sep}{bucket}"


def _ground_agg(agg: dict[str, Any], table: Table, renames: _Renames) -> dict[str, Any]:
    numbers: ColumnType = "number"
    out: dict[str, Any] = {}
    for output, text in agg.items():
        if not isinstance(text, str):
            out[output] = text
            continue
        op, sep, source = text.partition(":")
        wanted = numbers if op in ("sum", "mean") else None
        if op not in AGGREGATES or op == "count":
            out[output] = text
        elif sep:  # "sum:revenue": the source is named apart from the output
            found = renames.take(source, _nearest(source, list(table.columns), wanted), "column")
            out[output] = f"{op}:{found}"
        else:  # "revenue": "sum": the output is the source column
            found = renames.take(output, _nearest(output, list(table.columns), wanted), "column")
            out[found] = text
            continue
    return out


def _ground_query(
    entry: dict[str, Any], tables: Mapping[str, Table], where: str, fixes: list[str]
) -> _Renames | None:
    name = entry.get("from")
    if not isinstance(name, str) or not tables:
        return None
    if name not in tables:
        found = next(iter(tables)) if len(tables) == 1 else None
        close = difflib.get_close_matches(name, list(tables), n=1, cutoff=CLOSE)
        found = close[0] if close else found
        if found is None:
            return None
        entry["from"] = found
        fixes.append(f"{where}/from: read dataset {name!r} as {found!r}")
    table = tables[entry["from"]]
    renames = _Renames(where, fixes)
    group = entry.get("group")
    if isinstance(group, list):
        entry["group"] = [_ground_group(key, table, renames) for key in group]
    elif group is not None:
        entry["group"] = _ground_group(group, table, renames)
    if isinstance(entry.get("agg"), dict):
        entry["agg"] = _ground_agg(entry["agg"], table, renames)
    if isinstance(entry.get("columns"), list):
        entry["columns"] = [
            renames.take(c, _nearest(c, list(table.columns)), "column") if isinstance(c, str) else c
            for c in entry["columns"]
        ]
    sort = entry.get("sort")
    if isinstance(sort, str):
        descending = sort.startswith("-")
        bare = sort.lstrip("-")
        bare = renames.names.get(bare, bare)
        outputs = _outputs(entry, table)
        if all(c.name != bare for c in outputs):
            bare = renames.take(bare, _nearest(bare, outputs), "sort column")
        entry["sort"] = f"-{bare}" if descending else bare
    return renames


def _outputs(entry: dict[str, Any], table: Table) -> list[Column]:
    """The columns a query's rows have, typed where the table says (aggregates are numbers)."""
    by_name = {c.name: c for c in table.columns}
    group = entry.get("group")
    keys = group if isinstance(group, list) else [group] if group is not None else []
    if keys:
        out = [
            by_name.get(k.partition(":")[0], Column(k, "text")) for k in keys if isinstance(k, str)
        ]
        agg = entry.get("agg")
        outputs = list(agg) if isinstance(agg, dict) else []
        return out + [Column(n, "number") for n in outputs]
    columns = entry.get("columns")
    if isinstance(columns, list):
        return [by_name[c] for c in columns if isinstance(c, str) and c in by_name]
    return list(table.columns)


def _rename_field(value: object, rename: Callable[[str], str]) -> object:
    if isinstance(value, str):
        column, sep, header = value.partition(":")  # table cols may read "key:Header"
        return f"{rename(column)}{sep}{header}"
    if isinstance(value, list):
        return [_rename_field(v, rename) for v in value]
    return value


def ground_names(spec: object, tables: Mapping[str, Table]) -> Grounded:
    """A copy of `spec` whose queries and the nodes reading them use the tables' real names."""
    if not isinstance(spec, dict) or not isinstance(spec.get("data"), dict) or not tables:
        return Grounded(spec)
    if not any(is_query(e) for e in spec["data"].values()):
        return Grounded(spec)
    grounded = copy.deepcopy(spec)
    fixes: list[str] = []
    outputs: dict[str, tuple[_Renames, list[Column], dict[str, list[str]]]] = {}
    for name, entry in grounded["data"].items():
        if is_query(entry):
            renames = _ground_query(entry, tables, f"/data/{name}", fixes)
            if renames is not None:
                columns = _outputs(entry, tables[entry["from"]])
                outputs[name] = (renames, columns, _roles(entry))
    for ref in walk(grounded):
        node = ref.node
        data = node.get("data")
        if not isinstance(data, str) or data not in outputs:
            continue
        renames, columns, roles = outputs[data]
        where = "/" + "/".join(str(p) for p in ref.path)
        for field_name in (*NAME_FIELDS, "filter"):
            if field_name in node:
                rename = _NodeColumns(renames, columns, roles.get(field_name, []))
                rename.at, rename.fixes = f"{where}/{field_name}", fixes
                rewrite = _rename_filters if field_name == "filter" else _rename_field
                node[field_name] = rewrite(node[field_name], rename)
    return Grounded(grounded, fixes)


class _NodeColumns:
    """Renames a column a node reads from a query's result to one the result has."""

    def __init__(self, renames: _Renames, columns: list[Column], only: list[str]) -> None:
        self.renames = renames
        self.columns = columns
        # A chart's x is the query's group key and its y an aggregate: with one of each,
        # that is the column meant, whatever the spelling.
        self.only = only
        self.at = ""
        self.fixes: list[str] = []

    def __call__(self, column: str) -> str:
        if column == "*" or any(c.name == column for c in self.columns):
            return column
        new = self.renames.names.get(column) or _nearest(column, self.columns)
        new = new or (self.only[0] if len(self.only) == 1 else None)
        if new is None or new == column:
            return column
        self.fixes.append(f"{self.at}: read column {column!r} as {new!r}")
        return new


def _roles(entry: dict[str, Any]) -> dict[str, list[str]]:
    """A grouped query's key columns (a chart's x) and aggregate outputs (its y)."""
    group = entry.get("group")
    keys = group if isinstance(group, list) else [group] if group is not None else []
    agg = entry.get("agg")
    return {
        "x": [k.partition(":")[0] for k in keys if isinstance(k, str)],
        "y": list(agg) if isinstance(agg, dict) else [],
    }


def _rename_filters(value: object, rename: Callable[[str], str]) -> object:
    """Filter clauses ("region=region", "date>=from") with their column renamed."""
    if not isinstance(value, list):
        return value
    out: list[object] = []
    for clause in value:
        if isinstance(clause, str):
            cut = next((i for i, ch in enumerate(clause) if ch in "!<>=~"), len(clause))
            clause = rename(clause[:cut]) + clause[cut:]
        out.append(clause)
    return out
