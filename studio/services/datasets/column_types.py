"""A column's type, guessed from its cells or chosen by the designer, and its cells converted.

Guessing tries boolean, number, then date, and takes the first that reads every non-missing
cell; otherwise the column is a category (few distinct values: at most 50, and at most a fifth
of its cells) or text. So an inferred type never fails a cell. A type the designer chooses
is strict: a cell that does not read as that type is an error naming its row and column, and
the correction is refused; only cells that are missing (blank, "NA", "null", ...) in a typed
column become missing. Never silently: the same rule at upload and on correction."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from studio.services.datasets.limits import DatasetRejected
from studio.stored_tables.cells import (
    Cell,
    DateOrder,
    RawCell,
    as_text,
    date_order,
    is_missing,
    parse_boolean,
    parse_date,
    parse_number,
    slashed_parts,
)
from studio.stored_tables.row_numbers import RowNumbering
from ui4a.tables import COLUMN_TYPES, ColumnType

CATEGORY_MAX_VALUES = 50
CATEGORY_MAX_SHARE = 0.2
_WHAT = {"number": "a number", "date": "a date", "boolean": "true/false or yes/no"}


@dataclass(frozen=True)
class CellLocation:
    """Says where a cell is, in the designer's terms: "row 17, column "Price""."""

    numbering: RowNumbering
    label: str

    def at(self, index: int, *, capital: bool = False) -> str:
        row = self.numbering.number(index)
        return f'{"Row" if capital else "row"} {row}, column "{self.label}"'


def _reader(
    kind: ColumnType, values: Sequence[RawCell], *, chosen: bool = False
) -> Callable[[RawCell], Cell]:
    if kind == "number":
        return lambda value: parse_number(value, codes_are_text=not chosen)
    if kind == "boolean":
        return parse_boolean
    if kind == "date":
        # Day or month first is decided by the whole column, once, and only if it has a
        # "03/02/2025"-style date at all.
        orders: list[DateOrder] = []

        def read_date(value: RawCell) -> Cell:
            if not orders and slashed_parts(value):
                orders.append(date_order(values))
            return parse_date(value, orders[0] if orders else "mdy")

        return read_date
    return as_text


def _read_all(read: Callable[[RawCell], Cell], values: Sequence[RawCell]) -> list[Cell] | None:
    """Every cell read, missing ones as None; None as soon as one does not read."""
    cells: list[Cell] = []
    append = cells.append
    for value in values:
        if is_missing(value):
            append(None)
            continue
        cell = read(value)
        if cell is None:
            return None
        append(cell)
    return cells


def _texts(values: Sequence[RawCell]) -> list[Cell]:
    return [None if value is None or value == "" else as_text(value) for value in values]


def infer_column(values: Sequence[RawCell]) -> tuple[ColumnType, list[Cell]]:
    """The column's type and its cells converted, in one pass per type tried."""
    for kind in ("boolean", "number", "date"):
        cells = _read_all(_reader(kind, values), values)
        if cells is not None and any(cell is not None for cell in cells):
            return kind, cells
    texts = _texts(values)
    present = [t for t in texts if t is not None]
    distinct = len(set(present))
    if (
        present
        and distinct <= CATEGORY_MAX_VALUES
        and distinct <= CATEGORY_MAX_SHARE * len(present)
    ):
        return "category", texts
    return "text", texts


def infer_type(values: Sequence[RawCell]) -> ColumnType:
    return infer_column(values)[0]


def convert_column(
    values: Sequence[RawCell], kind: ColumnType, *, where: CellLocation
) -> list[Cell]:
    """Every cell as `kind`, or DatasetRejected naming the first cell that is not one."""
    if kind not in COLUMN_TYPES:
        raise DatasetRejected(
            "invalid_type",
            f"{kind!r} is not a column type; choose one of {', '.join(COLUMN_TYPES)}.",
            param="type",
        )
    if kind in ("text", "category"):
        return _texts(values)
    read = _reader(kind, values, chosen=True)
    cells: list[Cell] = []
    failed: list[int] = []
    for index, value in enumerate(values):
        if is_missing(value):
            cells.append(None)
            continue
        cell = read(value)
        if cell is None:
            failed.append(index)
        cells.append(cell)
    if failed:
        first = failed[0]
        shown = as_text(values[first]) or ""
        shown = shown if len(shown) <= 40 else shown[:39] + "…"
        more = (
            f" ({len(failed) - 1} more cells of this column are not either)"
            if len(failed) > 1
            else ""
        )
        raise DatasetRejected(
            "bad_cell",
            f'{where.at(first, capital=True)}: "{shown}" is not {_WHAT[kind]}, so the column '
            f"cannot be of type {kind}{more}. Fix the file, or keep the column as text.",
            param="type",
        )
    return cells
