"""How much of a request a spec shows (inference/serving/request_coverage.py)."""

from __future__ import annotations

import time

from inference.serving.request_coverage import MAX_CHARS, coverage, shown_text

SUPPLIERS = {
    "title": "Suppliers",
    "root": {
        "t": "page",
        "c": [
            {"t": "table", "data": "vendors", "cols": ["Name", "Contact", "Phone"]},
            {"t": "button", "label": "Add supplier", "on": {"do": "open", "path": "add"}},
        ],
    },
    "data": {"vendors": [{"Name": "Acme", "Contact": "Ada", "Phone": 5550100}]},
}


def test_shown_text_is_what_a_user_reads_not_the_structure() -> None:
    lines = shown_text(SUPPLIERS).splitlines()
    assert {"suppliers", "name", "contact", "phone", "add supplier", "acme", "5550100"} <= set(
        lines
    )
    # Component types, datasets' and state's names, actions and paths are structure.
    assert not {"page", "table", "vendors", "button", "open", "add"} & set(lines)


def test_coverage_counts_the_requests_words_the_spec_shows() -> None:
    asked = "Suppliers table with Name, Contact, Phone and Email"
    # suppliers, table, Name, Contact, Phone, Email: all but "table" and "Email" are shown.
    assert coverage(asked, SUPPLIERS) == 4 / 6


def test_long_words_match_their_stem_and_short_ones_whole_words() -> None:
    spec = {"title": "Book a table", "root": {"t": "page", "c": []}}
    assert coverage("booked", spec) == 1.0  # six letters or more: its stem "book" is shown
    assert coverage("tables", spec) == 1.0
    assert coverage("booking", spec) == 0.0  # the stem "booki" is not
    assert coverage("tab", spec) == 1.0  # "tab" starts "table": a word start is enough
    assert coverage("able", spec) == 0.0  # not at a word start


def test_a_request_with_no_content_words_covers_nothing() -> None:
    assert coverage("show me the page", SUPPLIERS) == 0.0


def test_reading_a_huge_spec_is_bounded() -> None:
    huge = {"title": "x", "root": {"t": "page", "c": [{"t": "text", "text": "y" * 10_000}] * 500}}
    started = time.monotonic()
    assert len(shown_text(huge)) <= MAX_CHARS
    assert coverage("y", huge) == 1.0 and time.monotonic() - started < 2.0
