"""Reading a designer's files into typed tables: every format, type inference and correction,
column names, the limits, and bad files refused with the row and column at fault."""

from __future__ import annotations

import datetime as dt
import io
import json
import zipfile
from collections.abc import Sequence

import pytest
import xlsxwriter

from studio.services.datasets.column_types import CellLocation, convert_column, infer_type
from studio.services.datasets.limits import DatasetLimits, DatasetRejected, DatasetTooLarge
from studio.services.datasets.names import column_names, dataset_name_from_file, identifier
from studio.services.datasets.parse import ParsedTable, parse_paste, parse_upload
from studio.stored_tables.cells import Cell, parse_date, parse_number
from studio.stored_tables.row_numbers import RowNumbering
from studio.stored_tables.storage import RowsCache, StoredRows, rows_decode, rows_encode

LIMITS = DatasetLimits(
    max_bytes=1024 * 1024, max_rows=1000, max_columns=10, max_cells=5000, max_cell_chars=200
)

SALES_CSV = (
    "Order Date,Region,Revenue ($),Paid,Notes\n"
    '2025-03-02,North,"1,200.50",yes,first order\n'
    "2025-03-04,South,300,no,\n"
    "2025-03-05,North,NaN,yes,called twice\n"
    "2025-03-09,North,80,no,left a review\n"
    "2025-03-11,North,120,yes,a long note about it\n"
) + "".join(f"2025-04-{day:02},South,{day * 10},no,note {day}\n" for day in range(1, 6))


def upload(text: str | bytes, filename: str = "sales.csv") -> ParsedTable:
    data = text.encode() if isinstance(text, str) else text
    return parse_upload(data, filename, limits=LIMITS)


def refused(text: str | bytes, filename: str = "sales.csv") -> DatasetRejected:
    with pytest.raises(DatasetRejected) as caught:
        upload(text, filename)
    return caught.value


def types(table: ParsedTable) -> dict[str, str]:
    return {c["name"]: c["type"] for c in table.columns}


def xlsx(rows: Sequence[Sequence[object]], *, at: tuple[int, int] = (0, 0)) -> bytes:
    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"in_memory": True})
    sheet = book.add_worksheet("Q1 sales")
    date_format = book.add_format({"num_format": "yyyy-mm-dd"})
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if isinstance(value, dt.date):
                sheet.write_datetime(at[0] + r, at[1] + c, value, date_format)
            elif value is not None:
                sheet.write(at[0] + r, at[1] + c, value)
    book.close()
    return buffer.getvalue()


def test_it_reads_a_csv_with_typed_columns_and_clean_names() -> None:
    table = upload(SALES_CSV)
    assert [(c["name"], c["label"]) for c in table.columns] == [
        ("order_date", "Order Date"),
        ("region", "Region"),
        ("revenue", "Revenue ($)"),
        ("paid", "Paid"),
        ("notes", "Notes"),
    ]
    assert types(table) == {
        "order_date": "date",
        "region": "category",
        "revenue": "number",
        "paid": "boolean",
        "notes": "text",
    }
    assert table.rows[0] == ["2025-03-02", "North", 1200.5, True, "first order"]
    # "NaN" in a number column and an empty note are missing, not text or zero.
    assert table.rows[2][2] is None and table.rows[1][4] is None
    assert table.numbering.first == 2 and table.source_format == "csv"


def test_a_tsv_and_a_semicolon_csv_are_told_by_their_separators() -> None:
    tsv = upload("a\tb\n1\t2\n", "numbers.tsv")
    assert tsv.source_format == "tsv" and tsv.rows == [[1, 2]]
    european = upload("city;price\nParis;3,5\nLyon;4\n", "prices.csv")
    assert european.detail == "semicolon-separated"
    assert european.rows == [["Paris", "3,5"], ["Lyon", "4"]]  # "3,5" is not a number we guess


def test_a_table_pasted_from_a_spreadsheet_is_tab_separated() -> None:
    pasted = parse_paste("Product\tUnits\nBell\t3\nLamp\t12\n", limits=LIMITS)
    assert pasted.source_format == "paste"
    assert types(pasted) == {"product": "text", "units": "number"}
    assert pasted.rows == [["Bell", 3], ["Lamp", 12]]
    typed = parse_paste("name,score\nAda,9.5\n", limits=LIMITS)
    assert typed.rows == [["Ada", 9.5]]


def test_it_reads_json_records_and_column_tables() -> None:
    records = upload(json.dumps([{"a": 1, "b": "x"}, {"a": 2.5, "c": True}]), "d.json")
    assert [c["name"] for c in records.columns] == ["a", "b", "c"]
    assert records.rows == [[1, "x", None], [2.5, None, True]]
    assert records.numbering.first == 1
    table = upload(
        '{"columns": ["when", "n"], "rows": [["2025-01-02", 1], ["2025-01-03", null]]}', "t.json"
    )
    assert types(table) == {"when": "date", "n": "number"}
    assert table.rows == [["2025-01-02", 1], ["2025-01-03", None]]


def test_json_nan_is_missing_and_infinity_is_refused_with_its_row() -> None:
    assert upload('[{"x": 1}, {"x": NaN}]', "d.json").rows == [[1], [None]]
    for bad in ('[{"x": 1}, {"x": Infinity}]', '[{"x": 1}, {"x": 1e400}]'):
        error = refused(bad, "d.json")
        assert error.code == "bad_cell" and 'Row 2, column "x"' in error.message


def test_json_that_is_not_a_table_says_what_a_table_looks_like() -> None:
    assert refused('[{"a": [1, 2]}]', "d.json").message.startswith('Row 1, column "a" holds a list')
    assert "list of objects" in refused('{"a": 1}', "d.json").message
    assert "line 1, column" in refused("[{", "d.json").message
    assert refused("[" * 100_000, "d.json").code == "bad_json"


def test_it_reads_the_first_sheet_of_an_xlsx_where_its_table_starts() -> None:
    data = xlsx(
        [
            ["Day", "Units", "Store"],
            [dt.date(2025, 1, 2), 3, "Oslo"],
            [dt.date(2025, 1, 3), 2.5, "Bergen"],
        ],
        at=(2, 1),
    )
    table = upload(data, "book.xlsx")
    assert types(table) == {"day": "date", "units": "number", "store": "text"}
    assert table.rows == [["2025-01-02", 3, "Oslo"], ["2025-01-03", 2.5, "Bergen"]]
    assert table.numbering.first == 4  # the sheet's own row number, under a header on row 3
    assert table.detail == 'sheet "Q1 sales"'


def test_a_spreadsheet_bomb_is_refused_before_it_is_opened() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (LIMITS.max_unzipped_bytes + 1))
    with pytest.raises(DatasetTooLarge, match="expands to"):
        upload(buffer.getvalue(), "bomb.xlsx")
    assert refused(b"PK\x03\x04 not really a zip", "fake.xlsx").code == "bad_spreadsheet"


def test_a_formula_error_in_a_number_column_is_a_missing_cell() -> None:
    table = upload(xlsx([["units"], [3], ["#DIV/0!"], [5]]), "book.xlsx")
    assert types(table) == {"units": "number"}
    assert [r[0] for r in table.rows] == [3, None, 5]


def test_wide_and_tall_spreadsheets_are_refused_by_their_dimensions() -> None:
    with pytest.raises(DatasetTooLarge, match="11 columns; the limit is 10"):
        upload(xlsx([[f"c{i}" for i in range(11)], list(range(11))]), "wide.xlsx")
    with pytest.raises(DatasetTooLarge, match="1,001 rows under its header"):
        upload(xlsx([["n"]] + [[i] for i in range(1001)]), "tall.xlsx")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2025-03-02", "2025-03-02"),
        ("2025-03-02T10:30:00", "2025-03-02T10:30:00"),
        ("2025-03-02 00:00", "2025-03-02"),
        ("Mar 3, 2025", "2025-03-03"),
        ("March 3 2025", "2025-03-03"),
        ("3 Mar 2025", "2025-03-03"),
        ("2025/3/9", "2025-03-09"),
        ("2025-02-30", None),
        ("yesterday", None),
    ],
)
def test_dates_read_as_iso(text: str, expected: str | None) -> None:
    assert parse_date(text) == expected


def test_slashed_dates_are_day_first_when_a_day_says_so_else_month_first() -> None:
    day_first = upload("when,n\n03/02/2025,1\n25/02/2025,2\n")
    assert [r[0] for r in day_first.rows] == ["2025-02-03", "2025-02-25"]
    month_first = upload("when,n\n03/02/2025,1\n02/25/2025,2\n")
    assert [r[0] for r in month_first.rows] == ["2025-03-02", "2025-02-25"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("12", 12),
        ("-3.5", -3.5),
        ("$1,234", 1234),
        ("1e3", 1000.0),
        (".5", 0.5),
        ("00123", None),  # a code, not a number
        ("1e400", None),  # not finite
        ("NaN", None),
        ("inf", None),
        ("1,2", None),
        ("9" * 41, None),
    ],
)
def test_numbers_are_finite_or_not_numbers(text: str, expected: object) -> None:
    assert parse_number(text) == expected


def test_a_column_with_an_infinite_number_is_text_and_cannot_be_made_a_number() -> None:
    table = upload("id,amount\na,1\nb,1e400\nc,3\nd,4\ne,5\nf,6\n")
    assert types(table)["amount"] == "text"
    where = CellLocation(numbering=table.numbering, label="amount")
    with pytest.raises(DatasetRejected) as caught:
        convert_column([r[1] for r in table.rows], "number", where=where)
    assert caught.value.message.startswith('Row 3, column "amount": "1e400" is not a number')


def test_inference_picks_category_only_for_few_repeated_values() -> None:
    assert infer_type(["a", "b"] * 10) == "category"
    assert infer_type([f"name {i}" for i in range(20)]) == "text"
    assert infer_type([str(i % 60) + "x" for i in range(1000)]) == "text"  # 60 values > 50
    assert infer_type(["yes", "No", "", None]) == "boolean"
    assert infer_type([None, ""]) == "text"


def test_retyping_converts_cells_or_names_the_first_that_does_not_convert() -> None:
    where = CellLocation(numbering=RowNumbering(2), label="Score")
    assert convert_column(["1", "2.5", "", "NA"], "number", where=where) == [1, 2.5, None, None]
    assert convert_column([1, 2.5, None], "text", where=where) == ["1", "2.5", None]
    with pytest.raises(DatasetRejected) as caught:
        convert_column(["1", "two", "3", "four"], "number", where=where)
    message = caught.value.message
    assert message.startswith('Row 3, column "Score": "two" is not a number')
    assert "1 more cells of this column" in message
    with pytest.raises(DatasetRejected, match="not a column type"):
        convert_column(["1"], "money", where=where)  # type: ignore[arg-type]


def test_column_names_are_identifiers_and_unique() -> None:
    assert column_names(["Region", "region", "REGION", "", "2024", "Café au lait"]) == [
        ("region", "Region"),
        ("region_2", "region"),
        ("region_3", "REGION"),
        ("column_4", "column_4"),
        ("c_2024", "2024"),
        ("cafe_au_lait", "Café au lait"),
    ]
    assert identifier("revenueUSD") == "revenue_usd"
    assert dataset_name_from_file("C:\\Users\\me\\Sales 2024 (final).CSV") == "sales_2024_final"
    assert dataset_name_from_file("€€€.csv") == "data"


def test_a_header_that_is_a_formula_or_markup_is_kept_as_inert_data() -> None:
    table = upload(
        '"=HYPERLINK(""http://evil.example"",""x"")",<script>alert(1)</script>,@sum\n1,2,3\n'
    )
    assert [c["name"] for c in table.columns] == [
        "hyperlink_http_evil_example_x",
        "script_alert_1_script",
        "sum",
    ]
    labels = [c["label"] for c in table.columns]
    # The label keeps what was written, minus the lead that makes a spreadsheet run it.
    assert labels == ['HYPERLINK("http://evil.example","x")', "<script>alert(1)</script>", "sum"]
    assert not any(label[0] in "=+-@" for label in labels)


@pytest.mark.parametrize(
    ("data", "code", "words"),
    [
        (b"", "empty_file", "The file is empty"),
        (b"\n\n \n", "empty_file", "The file is empty"),
        (b"a,b\x00\x01\x02,c", "not_text", "binary data at byte 3"),
        (bytes(range(128, 256)) * 40, "not_text", "binary data"),
        (b"PK\x03\x04rest", "not_text", "zip archive"),
        (
            b"a,b,c,d\n1,2,3,4\n" * 1 + b"1,2,3,4,5\n",
            "ragged_row",
            "Row 3 has 5 cells, the header has 4",
        ),
        (b"a,b\n1\n", "ragged_row", "Row 2 has 1 cell, the header has 2"),
        (b"12,2025-01-03\n3,2025-01-04\n", "no_header", 'looks like data ("12", "2025-01-03")'),
        (b"a,b\n", "no_rows", "no rows"),
        (b"x\x01y\x02z\x03w\x04,v\x05\n", "not_text", "control characters"),
    ],
)
def test_bad_files_are_refused_with_what_and_where(data: bytes, code: str, words: str) -> None:
    error = refused(data)
    assert error.code == code
    assert words in error.message


def test_unsupported_formats_say_which_to_use() -> None:
    error = refused(b"\xd0\xcf\x11\xe0", "old.xls")
    assert error.code == "unsupported_format" and "XLSX" in error.message


def test_limits_are_checked_while_reading() -> None:
    with pytest.raises(DatasetTooLarge, match="the limit is 1 MB"):
        upload(b"a\n" + b"1\n" * (LIMITS.max_bytes // 2), "big.csv")
    with pytest.raises(DatasetTooLarge, match="more than 1,000 rows"):
        upload("n\n" + "1\n" * 1001)
    with pytest.raises(DatasetTooLarge, match="11 columns; the limit is 10"):
        upload(",".join(f"c{i}" for i in range(11)) + "\n" + ",".join("1" * 11) + "\n")
    with pytest.raises(DatasetTooLarge, match="5,000 cells"):
        upload(",".join(f"c{i}" for i in range(10)) + "\n" + ("1," * 9 + "1\n") * 501)
    with pytest.raises(DatasetTooLarge, match='Row 3, column "note" has 201 characters'):
        upload("id,note\n1,ok\n2," + "x" * 201 + "\n")


def test_trailing_empty_cells_and_blank_rows_are_not_ragged() -> None:
    table = upload("a,b,,\n1,2,,\n\n3,4\n")
    assert [c["name"] for c in table.columns] == ["a", "b"]
    assert table.rows == [[1, 2], [3, 4]]


def test_rows_keep_their_file_numbers_across_skipped_blank_rows() -> None:
    table = upload("\n\nn,code\n1,5\n\n\n2,abc\n,\n3,7\n")
    assert table.numbering.numbers(3) == [4, 7, 9]
    where = CellLocation(numbering=table.numbering, label="code")
    with pytest.raises(DatasetRejected, match=r'^Row 7, column "code": "abc"'):
        convert_column([r[1] for r in table.rows], "number", where=where)


def test_windows_1252_and_utf8_with_a_bom_are_text() -> None:
    assert upload("name\nCafé\n".encode("cp1252")).rows == [["Café"]]
    assert upload("\ufeffname\nCafé\n".encode()).columns[0]["name"] == "name"


def test_rows_are_stored_compactly_and_read_back_as_dicts() -> None:
    rows: list[list[Cell]] = [["2025-01-02", "North", 1.5, True, None]] * 3
    blob = rows_encode(rows)
    assert rows_decode(blob) == rows
    stored = StoredRows(["d", "r", "v", "p", "n"], rows_decode(blob))
    assert len(stored) == 3
    assert stored[0] == {"d": "2025-01-02", "r": "North", "v": 1.5, "p": True, "n": None}
    assert stored[:2] == [stored[0], stored[1]] and list(stored)[2] == stored[2]


def test_the_rows_cache_decodes_once_and_keeps_within_its_budget() -> None:
    import uuid

    cache = RowsCache(max_cells=10)
    loads: list[int] = []
    first, second = uuid.uuid4(), uuid.uuid4()

    def load(rows: list[list[int]]):
        def read() -> bytes:
            loads.append(1)
            return rows_encode(rows)

        return read

    assert cache.get(first, load([[1, 2]] * 3)) == [[1, 2]] * 3
    assert cache.get(first, load([[9]])) == [[1, 2]] * 3  # cached: not loaded again
    assert len(loads) == 1
    cache.get(second, load([[1, 2]] * 3))  # 12 cells in all: the first goes
    assert cache.get(first, load([[7]])) == [[7]]
    assert len(loads) == 3


def test_a_json_cell_with_an_unpaired_surrogate_escape_is_stored_encodable() -> None:
    """`"\\ud800"` reads as a str no UTF-8 encoder takes: stored, it broke every render."""
    from studio.services.datasets.json_table import read_json

    table = read_json('[{"name": "a\\ud800b", "n": 1}]', limits=LIMITS)
    assert table.rows[0][0] == "a\ufffdb"
