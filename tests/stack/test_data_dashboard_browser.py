"""Bring your data, publish a dashboard, change the data: on the real stack (Redis, a Celery
worker with the vLLM engine, Daphne) in Chromium.

A 12,000-row CSV goes up through the Data panel, and PROMPT goes to the served ui expert, which
sees the file's profile and never its rows. Its queries are resolved against the upload, and
the chart's points and the table's first rows must equal what this test computes from the CSV
with the csv module. The dashboard is published; a new upload of the file changes what the
widget shows. Screenshots go to test-artifacts/data-*.png.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from datetime import date, timedelta
from pathlib import Path
from random import Random

import pytest
from playwright.sync_api import FrameLocator, Page, expect

from inference.paths import REPO_ROOT
from studio.stack import Stack

pytestmark = [pytest.mark.stack, pytest.mark.browser]

ARTIFACTS = REPO_ROOT / "test-artifacts"
ROWS = 12_000
PROMPT = (
    "a dashboard of my orders: monthly total revenue on a line chart "
    "and a table listing the latest 20 orders"
)
CHART_DATA = "c => { const d = Chart.getChart(c).data; return [d.labels, d.datasets[0].data]; }"


def orders_csv(seed: int) -> bytes:
    rng = Random(seed)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["order_date", "region", "product", "revenue"])
    for _ in range(ROWS):
        day = date(2025, 1, 1) + timedelta(days=rng.randrange(365))
        writer.writerow(
            [
                day.isoformat(),
                rng.choice(("North", "South", "East", "West")),
                rng.choice(("Road bike", "Helmet", "Lights", "Lock")),
                round(rng.uniform(5, 900), 2),
            ]
        )
    return out.getvalue().encode()


def monthly_revenue(data: bytes) -> dict[str, float]:
    sums: dict[str, float] = defaultdict(float)
    for row in csv.DictReader(io.StringIO(data.decode())):
        sums[row["order_date"][:7]] += float(row["revenue"])
    return dict(sums)


def newest_dates(data: bytes, count: int) -> list[str]:
    rows = csv.DictReader(io.StringIO(data.decode()))
    return sorted((row["order_date"] for row in rows), reverse=True)[:count]


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"data-{name}.png"))


def upload(page: Page, path: Path, version: int) -> None:
    page.locator("#dataset-file").set_input_files(str(path))
    data = page.get_by_role("region", name="Data")
    expect(data.get_by_role("button", name=re.compile(r"^orders"))).to_contain_text(
        re.compile(rf"12,000 rows · 4 columns · v{version}")
    )


def chart_points(frame: FrameLocator | Page) -> dict[str, float]:
    canvas = frame.locator("canvas").first
    canvas.wait_for()
    labels, values = canvas.evaluate(CHART_DATA)
    return dict(zip(labels, values, strict=True))


def assert_close(got: dict[str, float], wanted: dict[str, float]) -> None:
    assert set(got) == set(wanted)
    for label, value in wanted.items():
        assert abs(got[label] - value) <= 0.01 + 1e-9 * abs(value), (label, got[label], value)


def table_dates(frame: FrameLocator | Page) -> list[str]:
    cells = frame.locator("table.u4-table tbody tr td:first-child")
    expect(cells.first).to_be_visible()
    return [text.strip() for text in cells.all_inner_texts()]


def test_a_dashboard_of_an_uploaded_csv_shows_its_numbers_and_follows_a_new_upload(
    page: Page, stack: Stack, tmp_path: Path, errors: list[str]
) -> None:
    first, second = orders_csv(1), orders_csv(2)
    path = tmp_path / "orders.csv"
    path.write_bytes(first)
    page.goto(stack.signin_url("dana"))
    page.get_by_role("button", name="New project").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    upload(page, path, 1)

    page.get_by_label("Describe the interface").fill(PROMPT)
    page.get_by_role("button", name="Generate").click()
    expect(page.locator("#status")).to_contain_text("Done", timeout=240_000)
    preview = page.frame_locator("iframe[title=Preview]")
    assert_close(chart_points(preview), monthly_revenue(first))
    shown = table_dates(preview)
    assert shown[:10] == newest_dates(first, 10)
    shot(page, "01-dashboard")

    page.get_by_role("button", name="Publish…").click()
    dialog = page.get_by_role("dialog", name="Publish as a widget")
    dialog.get_by_role("button", name="Publish", exact=True).click()
    link = dialog.get_by_role("article").get_by_role("link").first
    widget_url = link.get_attribute("href")
    assert widget_url and "/w/" in widget_url
    shot(page, "02-published")
    page.keyboard.press("Escape")

    widget = page.context.new_page()
    widget.goto(widget_url)
    assert_close(chart_points(widget), monthly_revenue(first))

    # The designer's data changes: the same file again, new numbers; the widget follows.
    path.write_bytes(second)
    upload(page, path, 2)
    widget.reload()
    assert_close(chart_points(widget), monthly_revenue(second))
    assert table_dates(widget)[:10] == newest_dates(second, 10)
    widget.screenshot(path=str(ARTIFACTS / "data-03-widget-after-new-upload.png"))
    assert errors == []
