"""A chart's data reaches screen readers as a visually hidden table next to the canvas, kept
in step with the chart's filter."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from playwright.sync_api import Page, expect

from ui4a import render_body, render_document
from ui4a.registry import components, example_path

if TYPE_CHECKING:
    from tests.ui4a.conftest import Scan


@pytest.fixture
def example() -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(example_path(components()["chart"]).read_text())
    return spec


def test_it_renders_the_filtered_data_as_a_hidden_table(
    example: dict[str, Any], scan: type[Scan]
) -> None:
    example["state"] = {"region": "US"}
    html = render_body(example)
    tables = html.split('<div class="u4-sr"><table data-chart-table="">')[1:]
    assert len(tables) == 2
    line = scan(tables[0].split("</table>")[0]).text
    assert line == [
        "\n", "Revenue by month: data", "\n",
        "Month", "Revenue", "Cost", "\n",
        "Mar", "170", "95", "Apr", "210", "120", "\n",
    ]  # fmt: skip
    pie = scan(tables[1].split("</table>")[0]).text
    assert "Cost" not in pie  # a pie draws its first series only


@pytest.mark.browser
def test_it_gives_screen_readers_the_chart_data_as_a_table(
    page: Page, example: dict[str, Any]
) -> None:
    page.set_content(render_document(example))
    table = page.get_by_role("table", name="Revenue by month: data")
    # Visually hidden: it sits in a 1-pixel box that clips it.
    clip = "t => (s => [s.width, s.height, s.overflow])(getComputedStyle(t.parentElement))"
    assert table.evaluate(clip) == ["1px", "1px", "hidden"]
    expect(table.get_by_role("columnheader")).to_have_text(["Month", "Revenue", "Cost"])
    rows = table.get_by_role("row")
    expect(rows).to_have_count(5)
    expect(rows.nth(1)).to_have_text("Jan12080")
    page.get_by_label("Region").select_option("US")
    expect(rows).to_have_count(3)
    expect(rows.nth(1).get_by_role("cell")).to_have_text(["Mar", "170", "95"])
    pie = page.get_by_role("table", name="Share by month: data")
    expect(pie.get_by_role("columnheader")).to_have_text(["Month", "Revenue"])
