"""A table as its source holds it (a header row, then rows of raw cells), gathered under the
limits while its rows stream in, with the checks every format shares: a header that names
columns, rows as wide as the header, no cell longer than the limit."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from studio.services.datasets.limits import DatasetLimits, DatasetRejected, DatasetTooLarge
from studio.stored_tables.cells import RawCell, as_text, parse_date, parse_number
from studio.stored_tables.row_numbers import RowNumbering


@dataclass(frozen=True)
class RawTable:
    headers: list[str]
    rows: list[list[RawCell]]
    numbering: RowNumbering  # each row's number in the source


def _blank(cell: RawCell) -> bool:
    return cell is None or (isinstance(cell, str) and not cell.strip())


def _cells(count: int) -> str:
    return "1 cell" if count == 1 else f"{count} cells"


def _check_header(headers: list[str], *, header_row: int) -> None:
    present = [h for h in headers if h.strip()]
    if not present:
        raise DatasetRejected(
            "no_header",
            f"Row {header_row} is empty: the first row must name the columns."
            if header_row
            else "The columns have no names.",
        )
    explicit = header_row == 0  # JSON names its keys: "2024" is a fine column name there
    if not explicit and all(
        parse_number(h) is not None or parse_date(h) is not None for h in present
    ):
        shown = ", ".join(f'"{h[:20]}"' for h in present[:3])
        raise DatasetRejected(
            "no_header",
            f"The first row should name the columns, but it looks like data ({shown}). "
            "Add a header row with a name for each column.",
        )


def _check_cell(cell: RawCell, *, limits: DatasetLimits, row: int, label: str) -> None:
    if isinstance(cell, str) and len(cell) > limits.max_cell_chars:
        raise DatasetTooLarge(
            "cell_too_long",
            f'Row {row}, column "{label}" has {len(cell):,} characters; a cell may have at most '
            f"{limits.max_cell_chars:,}.",
        )


def collect(
    header: Sequence[RawCell],
    rows: Iterable[tuple[int, Sequence[RawCell]]],
    *,
    header_row: int,
    limits: DatasetLimits,
    skip_blank: bool = True,
) -> RawTable:
    """The header and every row, numbered as the source numbers them. Blank rows are skipped
    (unless `skip_blank` is off: a JSON record of nulls is a row);
    trailing blank cells past the header (spreadsheet exports add them) are dropped."""
    headers = [(as_text(h) or "").strip() for h in header]
    while headers and not headers[-1]:
        headers.pop()
    _check_header(headers, header_row=header_row)
    width = len(headers)
    if width > limits.max_columns:
        raise DatasetTooLarge(
            "too_many_columns",
            f"The table has {width} columns; the limit is {limits.max_columns}.",
        )
    max_rows = min(limits.max_rows, limits.max_cells // width)
    kept: list[list[RawCell]] = []
    first_row = header_row + 1
    gaps: list[tuple[int, int]] = []
    for number, row in rows:
        cells = list(row)
        while len(cells) > width and _blank(cells[-1]):
            cells.pop()
        if skip_blank and all(_blank(c) for c in cells):
            continue
        if not kept:
            first_row = number
        elif (expected := gaps_total(first_row, len(kept), gaps)) != number:
            gaps.append((len(kept), number - expected))
        if len(cells) != width:
            raise DatasetRejected(
                "ragged_row",
                f"Row {number} has {_cells(len(cells))}, the header has {width}. Every row needs "
                "one cell per column (leave a cell empty rather than out; quote cells that "
                "contain the separator).",
            )
        if len(kept) == max_rows:
            what = (
                f"{limits.max_rows:,} rows"
                if max_rows == limits.max_rows
                else f"{limits.max_cells:,} cells ({max_rows:,} rows of {width} columns)"
            )
            raise DatasetTooLarge(
                "too_many_rows", f"The table has more than {what}; that is the limit."
            )
        for cell, label in zip(cells, headers, strict=True):
            _check_cell(cell, limits=limits, row=number, label=label)
        kept.append(cells)
    if not kept:
        raise DatasetRejected("no_rows", "The table names its columns but has no rows.")
    return RawTable(headers=headers, rows=kept, numbering=RowNumbering(first_row, tuple(gaps)))


def gaps_total(first_row: int, index: int, gaps: list[tuple[int, int]]) -> int:
    """The source number row `index` would have if no more rows were skipped."""
    return first_row + index + sum(skipped for _, skipped in gaps)
