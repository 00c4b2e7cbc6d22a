"""A dashboard over an uploaded dataset in a real browser: the server aggregates, the view
draws the aggregate, and a client-side filter bound to state still narrows it."""

from __future__ import annotations

import json
import os
from collections import defaultdict

import pytest
from playwright.sync_api import Page, expect

import ui4a
from tests.axe import axe_violations
from tests.ui4a.test_queries import sales
from ui4a.registry import components, example_path

pytestmark = pytest.mark.browser


def monthly_sums(region: str | None) -> list[float]:
    totals: dict[str, float] = defaultdict(float)
    for row in sales(2_000).rows:
        if region is None or row["region"] == region:
            totals[row["date"][:7]] += row["revenue"]
    return [round(totals[month], 2) for month in sorted(totals)]


def test_a_resolved_dashboard_draws_months_and_a_region_filter_narrows_them(
    page: Page, errors: list[str]
) -> None:
    example = json.loads(
        example_path(components()["chart"]).with_name("example_query.json").read_text()
    )
    example["data"]["top"]["limit"] = 1_000  # more best days than a 20 kB budget holds
    resolved = ui4a.resolve_data(example, {"sales": sales(2_000)}, max_bytes=20_000)
    assert resolved.spec is not None
    page.set_content(ui4a.render_document(resolved.spec))
    line = page.get_by_role("img", name="Revenue by month: line chart of revenue by date")
    expect(line).to_be_visible()
    page.wait_for_function("() => window.Chart && Object.keys(Chart.instances).length === 1")
    labels = "c => Chart.getChart(c).data.labels"
    values = "c => Chart.getChart(c).data.datasets[0].data.map(v => Math.round(v * 100) / 100)"
    assert line.evaluate(labels) == [f"2025-{m:02d}" for m in range(1, 13)]
    assert line.evaluate(values) == pytest.approx(monthly_sums(None), abs=0.02)
    page.get_by_label("Region").select_option("North")
    assert line.evaluate(values) == pytest.approx(monthly_sums("North"), abs=0.02)
    # The raw-row query did not fit the small budget: the table says how much it shows.
    shown = len(resolved.spec["data"]["top"])
    assert len(resolved.spec["data"]["monthly"]) == 48  # the aggregate fits whole
    expect(page.get_by_role("note")).to_have_text(f"Showing {shown} of 1,000 rows")
    if os.environ.get("SCREENSHOT_DIR"):
        page.screenshot(path=f"{os.environ['SCREENSHOT_DIR']}/queries.png", full_page=True)
    assert axe_violations(page) == []  # the note too
    assert errors == []
