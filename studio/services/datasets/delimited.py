"""Text tables: CSV, TSV and a table pasted from a spreadsheet (tab- or comma-separated).

The bytes must be text: a NUL byte or undecodable bytes name the offset where the binary
starts. The separator comes from the file's extension, checked against the first lines (a
".csv" from a European spreadsheet is often semicolon-separated)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator, Sequence

from studio.services.datasets.limits import DatasetLimits, DatasetRejected, DatasetTooLarge
from studio.services.datasets.raw import RawTable, collect

SEPARATORS = ("\t", ",", ";", "|")
SNIFF_LINES = 30
_NAMES = {"\t": "tab", ",": "comma", ";": "semicolon", "|": "vertical bar"}


def decode_text(data: bytes) -> str:
    """UTF-8 (with or without a byte-order mark), UTF-16 with one, or Windows-1252 (older
    spreadsheet exports); binary data is refused with where it starts."""
    if data.startswith(b"PK\x03\x04"):
        raise DatasetRejected(
            "not_text",
            "This file is a zip archive (an XLSX spreadsheet?), not text; upload a spreadsheet "
            "with its .xlsx name.",
        )
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise _binary(exc.start) from None
    if (nul := data.find(b"\x00")) >= 0:
        raise _binary(nul)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as first:
        try:
            text = data.decode("cp1252")
        except UnicodeDecodeError:
            raise _binary(first.start) from None
    controls = sum(1 for ch in text[:65536] if ch < " " and ch not in "\t\r\n")
    if controls > max(2, len(text[:65536]) // 200):
        raise DatasetRejected(
            "not_text",
            "This file does not read as text (it is full of control characters); upload CSV, "
            "TSV, JSON or XLSX.",
        )
    return text


def _binary(offset: int) -> DatasetRejected:
    return DatasetRejected(
        "not_text",
        f"This file is not text: it has binary data at byte {offset:,}. Upload CSV, TSV, JSON "
        "or XLSX.",
    )


def _widths(lines: Sequence[str], separator: str) -> list[int]:
    try:
        return [len(r) for r in csv.reader(lines, delimiter=separator) if any(c.strip() for c in r)]
    except csv.Error:
        return []


def sniff_separator(text: str, preferred: str | None) -> str:
    """The separator that splits the first lines into the same number (> 1) of cells;
    `preferred` first. A table of one column has none to find: `preferred` or a comma."""
    lines = text.splitlines()[:SNIFF_LINES]
    if len(text.splitlines()) > SNIFF_LINES:
        lines = lines[:-1]  # the last sampled line may be cut inside a quoted cell
    order = [preferred] if preferred else []
    order += [s for s in SEPARATORS if s != preferred]
    for separator in order:
        widths = _widths(lines, separator)
        if widths and widths[0] > 1 and len(set(widths)) == 1:
            return separator
    best = max(order, key=lambda s: (_widths(lines, s) or [0])[0])
    return best if (_widths(lines, best) or [0])[0] > 1 else (preferred or ",")


def separator_name(separator: str) -> str:
    return _NAMES.get(separator, repr(separator))


def read_delimited(text: str, *, separator: str, limits: DatasetLimits) -> RawTable:
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator)
    records = _numbered(reader)
    try:
        first = next(records, None)
        if first is None or not text.strip():
            raise DatasetRejected("empty_file", "The file is empty: there is no table in it.")
        return collect(first[1], records, header_row=first[0], limits=limits)
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise DatasetTooLarge(
                "cell_too_long",
                f"Row {reader.line_num} has a cell over {limits.max_cell_chars:,} characters "
                "(the limit); is a quote left open?",
            ) from None
        raise DatasetRejected(
            "bad_text_table", f"Row {reader.line_num}: the table cannot be read ({exc})."
        ) from None


def _numbered(reader: Iterator[list[str]]) -> Iterator[tuple[int, list[str]]]:
    """Records numbered from 1 as a spreadsheet numbers rows, leading blank lines skipped."""
    number = 0
    started = False
    for record in reader:
        number += 1
        if not started and not any(cell.strip() for cell in record):
            continue
        started = True
        yield number, record
