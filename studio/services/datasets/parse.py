"""From an upload's bytes or a pasted text to a typed table: pick the reader by the file's
name (or its first bytes), read it under the limits, name the columns, infer their types and
convert every cell."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any

from studio.services.datasets.column_types import infer_column
from studio.services.datasets.delimited import (
    decode_text,
    read_delimited,
    separator_name,
    sniff_separator,
)
from studio.services.datasets.json_table import read_json
from studio.services.datasets.limits import (
    DatasetLimits,
    DatasetRejected,
    DatasetTooLarge,
    megabytes,
)
from studio.services.datasets.names import column_names
from studio.services.datasets.raw import RawTable
from studio.services.datasets.spreadsheet import read_spreadsheet
from studio.stored_tables.cells import Cell
from studio.stored_tables.row_numbers import RowNumbering

TEXT_SEPARATORS = {".csv": ",", ".tsv": "\t", ".tab": "\t", ".txt": None}
UNSUPPORTED = {".xls", ".xlsb", ".numbers", ".ods", ".parquet", ".pdf", ".zip"}
FORMATS_HINT = "Upload CSV, TSV, JSON or XLSX, or paste the table."


@dataclass(frozen=True)
class ParsedTable:
    columns: list[dict[str, Any]]  # {"name", "label", "type", "inferred"}
    rows: list[list[Cell]]
    numbering: RowNumbering
    source_format: str  # csv, tsv, json, xlsx or paste
    detail: str  # how it was read: "semicolon-separated", 'sheet "Q1"'


def _extension(filename: str) -> str:
    name = PurePosixPath(PureWindowsPath(filename).name).name.lower()
    return "." + name.rsplit(".", 1)[1] if "." in name else ""


def _check_size(size: int, limits: DatasetLimits, *, what: str = "The file") -> None:
    if size > limits.max_bytes:
        raise DatasetTooLarge(
            "file_too_large",
            f"{what} is {megabytes(size)}; the limit is {megabytes(limits.max_bytes)}.",
        )
    if size == 0:
        raise DatasetRejected("empty_file", "The file is empty: there is no table in it.")


def typed_table(raw: RawTable, *, source_format: str, detail: str = "") -> ParsedTable:
    named = column_names(raw.headers)
    columns: list[dict[str, Any]] = []
    converted: list[list[Cell]] = []
    for index, (name, label) in enumerate(named):
        values = [row[index] for row in raw.rows]
        kind, cells = infer_column(values)
        converted.append(cells)
        columns.append({"name": name, "label": label, "type": kind, "inferred": kind})
    rows = [list(cells) for cells in zip(*converted, strict=True)]
    return ParsedTable(columns, rows, raw.numbering, source_format, detail)


def parse_upload(data: bytes, filename: str, *, limits: DatasetLimits) -> ParsedTable:
    _check_size(len(data), limits)
    extension = _extension(filename)
    if extension in UNSUPPORTED:
        raise DatasetRejected(
            "unsupported_format", f"{extension} files cannot be read here. {FORMATS_HINT}"
        )
    if extension in (".xlsx", ".xlsm") or (
        extension not in TEXT_SEPARATORS and extension != ".json" and data[:4] == b"PK\x03\x04"
    ):
        raw, sheet = read_spreadsheet(data, limits=limits)
        return typed_table(raw, source_format="xlsx", detail=f'sheet "{sheet}"')
    text = decode_text(data)
    if extension == ".json" or (extension not in TEXT_SEPARATORS and text.lstrip()[:1] in "[{"):
        return typed_table(read_json(text, limits=limits), source_format="json")
    separator = sniff_separator(text, TEXT_SEPARATORS.get(extension, ","))
    raw = read_delimited(text, separator=separator, limits=limits)
    source_format = "tsv" if separator == "\t" else "csv"
    return typed_table(
        raw, source_format=source_format, detail=f"{separator_name(separator)}-separated"
    )


def parse_paste(text: str, *, limits: DatasetLimits) -> ParsedTable:
    """A table copied from a spreadsheet (tab-separated) or typed as CSV."""
    size = len(text.encode("utf-8"))
    if not text.strip():
        raise DatasetRejected("empty_file", "Paste a table first: the text is empty.", param="text")
    _check_size(size, limits, what="The pasted table")
    if "\x00" in text:
        raise DatasetRejected("not_text", "The pasted text has binary data in it.", param="text")
    separator = sniff_separator(text, "\t" if "\t" in text.split("\n", 1)[0] else ",")
    raw = read_delimited(text, separator=separator, limits=limits)
    return typed_table(raw, source_format="paste", detail=f"{separator_name(separator)}-separated")
