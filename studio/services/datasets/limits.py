"""What one dataset may hold, and the error every refused upload raises.

Each limit is checked before the work it bounds (the upload's declared size before reading
it, a spreadsheet's declared dimensions before loading its cells) or while reading (rows and
cells as they stream), so a bad file costs at most the limit, never its own size."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

from studio.errors import InvalidRequest, TooLarge


@dataclass(frozen=True)
class DatasetLimits:
    max_bytes: int  # an uploaded file, or a pasted table's text
    max_rows: int
    max_columns: int
    max_cells: int  # rows x columns: what one table costs in memory and on every render
    max_cell_chars: int
    max_datasets: int = 50  # per project
    max_name_chars: int = 63
    # A spreadsheet is a zip: what its parts may expand to (a small file can hold a bomb).
    max_unzipped_bytes: int = 400 * 1024 * 1024


def dataset_limits() -> DatasetLimits:
    return DatasetLimits(
        max_bytes=settings.MACARON_DATASET_MAX_BYTES,
        max_rows=settings.MACARON_DATASET_MAX_ROWS,
        max_columns=settings.MACARON_DATASET_MAX_COLUMNS,
        max_cells=settings.MACARON_DATASET_MAX_CELLS,
        max_cell_chars=settings.MACARON_DATASET_MAX_CELL_CHARS,
        max_datasets=settings.MACARON_DATASETS_PER_PROJECT,
    )


class DatasetRejected(InvalidRequest):
    """A file, a paste or a correction the studio refuses; the message names the problem and,
    where there is one, the row and column. Nothing was stored."""


class DatasetTooLarge(TooLarge):
    """Over a size limit (bytes, rows, columns, cells)."""


def megabytes(size: int) -> str:
    """ "20 MB", "1.1 MB", "1,000 bytes": never rounded so that a size over a limit reads as
    equal to it."""
    mb = 1024 * 1024
    if size < mb:
        return f"{size:,} bytes"
    if size % mb == 0 or size >= 100 * mb:
        return f"{size / mb:,.0f} MB"
    return f"{size / mb:.1f} MB"
