"""XLSX spreadsheets, read with python-calamine: the first sheet, its first row the header.

An XLSX file is a zip, and a few MB of it can expand to gigabytes: the parts' declared sizes
are checked before calamine opens it, and the sheet's dimensions before its cells are
converted to Python values."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator, Sequence

from python_calamine import CalamineError, CalamineWorkbook

from studio.services.datasets.limits import (
    DatasetLimits,
    DatasetRejected,
    DatasetTooLarge,
    megabytes,
)
from studio.services.datasets.raw import RawTable, collect
from studio.stored_tables.cells import RawCell


def _check_archive(data: bytes, limits: DatasetLimits) -> None:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            unzipped = sum(info.file_size for info in archive.infolist())
    except zipfile.BadZipFile:
        raise DatasetRejected(
            "bad_spreadsheet",
            "This file is not an XLSX spreadsheet (it is not the zip an .xlsx file is); "
            "export it as XLSX or CSV again.",
        ) from None
    if unzipped > limits.max_unzipped_bytes:
        raise DatasetTooLarge(
            "file_too_large",
            f"This spreadsheet expands to {megabytes(unzipped)}; the limit is "
            f"{megabytes(limits.max_unzipped_bytes)}.",
        )


def read_spreadsheet(data: bytes, *, limits: DatasetLimits) -> tuple[RawTable, str]:
    """The first sheet's table, and the sheet's name."""
    _check_archive(data, limits)
    try:
        workbook = CalamineWorkbook.from_filelike(io.BytesIO(data))
        sheet = workbook.get_sheet_by_index(0)
    except (CalamineError, ValueError, IndexError) as exc:
        raise DatasetRejected(
            "bad_spreadsheet", f"This spreadsheet cannot be read: {exc}."
        ) from None
    if sheet.width > limits.max_columns:
        raise DatasetTooLarge(
            "too_many_columns",
            f'Sheet "{sheet.name}" has {sheet.width} columns; the limit is {limits.max_columns}.',
        )
    if sheet.height > limits.max_rows + 1:
        raise DatasetTooLarge(
            "too_many_rows",
            f'Sheet "{sheet.name}" has {sheet.height - 1:,} rows under its header; the limit '
            f"is {limits.max_rows:,}.",
        )
    start_row = sheet.start[0] if sheet.start else 0
    # Dimensions are checked above, so the whole (used area of the) sheet fits the limits.
    rows: Iterator[Sequence[RawCell]] = iter(sheet.to_python(skip_empty_area=True))
    header = next(rows, None)
    if header is None:
        raise DatasetRejected("empty_file", f'Sheet "{sheet.name}" is empty.')

    def numbered() -> Iterator[tuple[int, list[RawCell]]]:
        for number, row in enumerate(rows, start=start_row + 2):
            yield number, [_integral(cell) for cell in row]

    return collect(header, numbered(), header_row=start_row + 1, limits=limits), sheet.name


def _integral(cell: RawCell) -> RawCell:
    """Spreadsheets store every number as a float; 3.0 in a cell was typed as 3."""
    if isinstance(cell, float) and cell.is_integer() and abs(cell) < 2**53:
        return int(cell)
    return cell
