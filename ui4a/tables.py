"""Tables a designer brings (uploaded datasets), as the spec library sees them.

A `Table` is typed rows under a name. The studio parses uploads into one; a spec's "data" entry
may then be a query over it (`{"from": name, ...}`, ui4a/queries.py) that the server resolves
into rows before rendering, so the model never sees the rows, only `profile_text`: each
column's type, range and a few sample values.

Cell values by column type: number -> int or float (finite), date -> ISO "YYYY-MM-DD" (or
"YYYY-MM-DDTHH:MM:SS"), boolean -> bool, category and text -> str; a missing cell is None.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

ColumnType = Literal["number", "date", "category", "text", "boolean"]
COLUMN_TYPES: tuple[ColumnType, ...] = ("number", "date", "category", "text", "boolean")

# What the model is shown per column: enough to pick columns and buckets, little enough that a
# dozen columns stay a few hundred tokens.
SAMPLE_VALUES = 3
CATEGORY_VALUES_SHOWN = 8
SAMPLE_TEXT_CHARS = 24


@dataclass(frozen=True)
class Column:
    name: str
    type: ColumnType


@dataclass(frozen=True)
class Table:
    name: str
    columns: tuple[Column, ...]
    rows: Sequence[Mapping[str, Any]] = field(default_factory=list)

    def column(self, name: str) -> Column | None:
        return next((c for c in self.columns if c.name == name), None)


def _short(value: object) -> str:
    text = str(value)
    if len(text) > SAMPLE_TEXT_CHARS:
        text = text[: SAMPLE_TEXT_CHARS - 1] + "…"
    # JSON quoting: a cell's text can never read as an instruction's punctuation.
    return json.dumps(text, ensure_ascii=False)


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def column_profile(column: Column, rows: Sequence[Mapping[str, Any]]) -> str:
    """One line: the column's name, type and what its values look like."""
    values = [row.get(column.name) for row in rows]
    present = [v for v in values if v is not None]
    head = f"- {column.name}: {column.type}"
    if not present:
        return f"{head}, empty"
    if column.type == "number":
        numbers = [v for v in present if isinstance(v, int | float) and not isinstance(v, bool)]
        if numbers:
            return f"{head}, {_number(min(numbers))} to {_number(max(numbers))}"
    if column.type == "date":
        dates = sorted(str(v) for v in present)
        return f"{head}, {dates[0]} to {dates[-1]}"
    if column.type == "boolean":
        return f"{head}"
    if column.type == "category":
        counts = Counter(str(v) for v in present)
        shown = [_short(v) for v, _ in counts.most_common(CATEGORY_VALUES_SHOWN)]
        more = len(counts) - len(shown)
        tail = f" and {more} more" if more > 0 else ""
        return f"{head}, {len(counts)} values: {', '.join(shown)}{tail}"
    samples: list[str] = []
    for value in present:
        short = _short(value)
        if short not in samples:
            samples.append(short)
        if len(samples) == SAMPLE_VALUES:
            break
    return f"{head}, e.g. {', '.join(samples)}"


def profile_text(table: Table) -> str:
    """What the ui expert is told about a dataset: never its rows, only their shape."""
    lines = [f"Dataset {json.dumps(table.name)} ({len(table.rows)} rows):"]
    lines += [column_profile(column, table.rows) for column in table.columns]
    return "\n".join(lines)


def prompt_with_tables(prompt: str, tables: Sequence[Table]) -> str:
    """The user turn the ui expert sees in a project with datasets (training uses the same)."""
    if not tables:
        return prompt
    profiles = "\n".join(profile_text(t) for t in tables)
    return f"{profiles}\n\n{prompt}"
