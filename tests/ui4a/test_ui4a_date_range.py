"""The docs example for a date range: two date inputs narrow a table with `date>=from` and
`date<=to` (ISO dates compare as text), on the server and in the browser alike."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ui4a import render_body, render_document, repair, validate
from ui4a.registry import COMPONENTS_DIR

EXAMPLE = COMPONENTS_DIR / "table" / "example_date_range.json"


@pytest.fixture
def example() -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(EXAMPLE.read_text())
    return spec


def test_it_is_a_valid_example(example: dict[str, Any]) -> None:
    assert validate(example) == []
    assert repair(example).problems == []


def test_it_renders_only_the_rows_in_the_range(example: dict[str, Any]) -> None:
    example["state"] = {"from": "2026-01-19", "to": "2026-02-16"}
    # The body ends with every dataset as JSON; the rows shown come before it.
    body = render_body(example).split('<script type="application/json"')[0]
    shown = [r["customer"] for r in example["data"]["orders"] if r["customer"] in body]
    assert shown == ["Grace Hopper", "Alan Turing", "Katherine Johnson"]
    assert "1\u20133 of 3" in body


@pytest.mark.browser
def test_it_filters_the_table_by_a_date_range(page: Page, example: dict[str, Any]) -> None:
    page.set_content(render_document(example))
    table = page.get_by_role("table", name="Orders by date")
    rows = table.get_by_role("row")
    expect(rows).to_have_count(7)  # a header row and all six orders: an empty range is open
    page.get_by_label("From").fill("2026-02-01")
    expect(rows).to_have_count(5)
    expect(rows.nth(1)).to_contain_text("Alan Turing")
    page.get_by_label("To").fill("2026-02-16")  # both ends are inclusive
    expect(rows).to_have_count(3)
    expect(rows.nth(2)).to_contain_text("Katherine Johnson")
    page.get_by_label("From").fill("")
    expect(rows).to_have_count(5)
    expect(rows.nth(1)).to_contain_text("Ada Lovelace")
    page.get_by_label("From").fill("2026-04-01")
    expect(table.get_by_role("cell", name="No rows")).to_be_visible()
