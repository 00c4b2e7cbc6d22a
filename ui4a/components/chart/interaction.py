"""The chart docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    line = page.get_by_role("img", name="Revenue by month: line chart of revenue, cost by month")
    expect(line).to_be_visible()
    labels = "c => Chart.getChart(c).data.labels.join()"
    page.wait_for_function(
        "() => window.Chart && Chart.instances && Object.keys(Chart.instances).length === 2"
    )
    assert line.evaluate(labels) == "Jan,Feb,Mar,Apr"
    page.get_by_label("Region").select_option("US")
    assert line.evaluate(labels) == "Mar,Apr"
    pie = page.get_by_role("img", name="Share by month: pie chart of revenue by month")
    assert pie.evaluate("c => Chart.getChart(c).config.type") == "pie"
