"""JSON tables: a list of objects (`[{"region": "North", "revenue": 12}, …]`, keys in order of
first appearance, a missing key a missing cell), or `{"columns": [...], "rows": [[...], …]}`.

Rows are numbered from 1 (the first record). A cell is text, a number, true/false or null; a
nested list or object is refused with its row and key. NaN reads as missing, like "NaN" in a
CSV; Infinity (or 1e400) is an error, never stored."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

from studio.services.datasets.limits import DatasetLimits, DatasetRejected, DatasetTooLarge
from studio.services.datasets.raw import RawTable, collect
from studio.stored_tables.cells import RawCell
from ui4a.texts import encodable_strings

SHAPE = (
    'A JSON dataset is a list of objects ([{"region": "North", "revenue": 12}, …]) or '
    '{"columns": ["region", "revenue"], "rows": [["North", 12], …]}.'
)


class _Infinite(float):
    """Marks Infinity in the parsed document so the error can say where it is."""


def _constant(name: str) -> float:
    return math.nan if name == "NaN" else _Infinite(math.inf if name == "Infinity" else -math.inf)


def _cell(value: Any, *, row: int, column: str) -> RawCell:
    if isinstance(value, float):
        if math.isnan(value):
            return None
        if not math.isfinite(value):
            raise DatasetRejected(
                "bad_cell",
                f'Row {row}, column "{column}" is infinite (Infinity, or a number too large such '
                "as 1e400); cells hold finite numbers only.",
            )
    if value is None or isinstance(value, str | int | float | bool):
        return value
    kind = "a list" if isinstance(value, list) else "an object"
    raise DatasetRejected(
        "bad_cell",
        f'Row {row}, column "{column}" holds {kind}; a cell must be text, a number, true/false '
        "or null.",
    )


def _parse(text: str) -> Any:
    try:
        # A `"\ud800"` escape reads as a string no UTF-8 encoder takes: stored, it would
        # break every render of the dataset.
        return encodable_strings(json.loads(text, parse_constant=_constant))
    except json.JSONDecodeError as exc:
        raise DatasetRejected(
            "bad_json",
            f"This is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.",
        ) from None
    except RecursionError:
        raise DatasetRejected("bad_json", "This JSON is nested too deeply to be a table.") from None


def _from_records(records: list[Any], limits: DatasetLimits) -> RawTable:
    keys: dict[str, None] = {}
    for index, record in enumerate(records, start=1):
        if not isinstance(record, dict):
            raise DatasetRejected(
                "bad_json", f"Row {index} is not an object ({type(record).__name__}). {SHAPE}"
            )
        for key in record:
            if key not in keys:
                keys[key] = None
                if len(keys) > limits.max_columns:
                    raise DatasetTooLarge(
                        "too_many_columns",
                        f"The records have more than {limits.max_columns} different keys; the "
                        f"limit is {limits.max_columns} columns.",
                    )
    header = list(keys)

    def rows() -> Iterator[tuple[int, list[RawCell]]]:
        for index, record in enumerate(records, start=1):
            yield index, [_cell(record.get(k), row=index, column=k) for k in header]

    return collect(header, rows(), header_row=0, limits=limits, skip_blank=False)


def _from_columns(document: dict[str, Any], limits: DatasetLimits) -> RawTable:
    columns, rows = document.get("columns"), document.get("rows")
    if not isinstance(columns, list) or not isinstance(rows, list):
        raise DatasetRejected("bad_json", SHAPE)
    header: list[str] = []
    for column in columns:
        name = column.get("name") if isinstance(column, dict) else column
        if not isinstance(name, str):
            raise DatasetRejected("bad_json", f"Column names must be text. {SHAPE}")
        header.append(name)

    def numbered() -> Iterator[tuple[int, list[RawCell]]]:
        for index, row in enumerate(rows, start=1):
            if not isinstance(row, list):
                raise DatasetRejected("bad_json", f"Row {index} is not a list of cells. {SHAPE}")
            yield (
                index,
                [
                    _cell(v, row=index, column=header[i] if i < len(header) else f"#{i + 1}")
                    for i, v in enumerate(row)
                ],
            )

    return collect(header, numbered(), header_row=0, limits=limits, skip_blank=False)


def read_json(text: str, *, limits: DatasetLimits) -> RawTable:
    if not text.strip():
        raise DatasetRejected("empty_file", "The file is empty: there is no table in it.")
    document = _parse(text)
    if isinstance(document, list):
        if not document:
            raise DatasetRejected("no_rows", "The JSON list is empty: there are no rows.")
        return _from_records(document, limits)
    if isinstance(document, dict):
        return _from_columns(document, limits)
    raise DatasetRejected("bad_json", SHAPE)
