"""The data panel as a designer uses it, without the engine: a Django live server and Debian's
Chromium. Upload, preview, correct a type, paste, and a bad file's message in place; a header
written as markup stays text."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from studio.models import DatasetVersion, Project
from tests.axe import axe_violations
from tests.live_session import sign_in

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SALES = "date,region,revenue,<img src=x onerror=window.pwned=1>\n" + "".join(
    f"2025-03-{day:02},{'North' if day % 3 else 'South'},{day * 10},x{day}\n"
    for day in range(1, 29)
)


@pytest.fixture
def project(live_server: Any) -> Project:
    owner = get_user_model().objects.create_user("ada", password="not-used-here-42")
    return Project.objects.create(name="Bike shop", owner=owner)


def open_project(page: Page, live_server: Any, project: Project) -> None:
    assert project.owner is not None
    sign_in(page, live_server, project.owner)
    page.goto(f"{live_server.url}/p/{project.id}/")
    expect(page.get_by_role("heading", name="Data")).to_be_visible()


def test_it_uploads_previews_and_corrects_a_dataset(
    page: Page, live_server: Any, project: Project, errors: list[str], tmp_path: Path
) -> None:
    open_project(page, live_server, project)
    panel = page.get_by_role("region", name="Data")
    expect(panel.get_by_text("No data yet.")).to_be_visible()

    csv_file = tmp_path / "March sales.csv"
    csv_file.write_text(SALES)
    panel.get_by_label("Upload").set_input_files(csv_file)
    dataset = panel.get_by_role("button", name="march_sales")
    expect(dataset).to_contain_text("28 rows · 4 columns · v1")

    dataset.click()
    dialog = page.get_by_role("dialog", name="Dataset march_sales")
    expect(dialog.get_by_role("cell", name="2025-03-01")).to_be_visible()
    # The markup header is a label like any other: shown as text, never run.
    expect(dialog.get_by_text("<img src=x onerror=window.pwned=1>", exact=True)).to_be_visible()
    assert page.evaluate("() => window.pwned") is None
    assert axe_violations(page, iframes=False) == []
    page.screenshot(path="test-artifacts/data-panel-preview.png")

    dialog.get_by_label("Type of region").select_option("number")
    expect(dialog.get_by_role("alert")).to_contain_text(
        'Row 2, column "region": "North" is not a number'
    )
    page.screenshot(path="test-artifacts/data-panel-type-refused.png")
    dialog.get_by_label("Type of revenue").select_option("text")
    expect(dialog.get_by_text("Version 2")).to_be_visible()
    assert DatasetVersion.objects.filter(number=2).get().columns[2]["type"] == "text"

    dialog.get_by_role("button", name="Close the dataset").click()
    expect(dialog).to_be_hidden()
    expect(dataset).to_contain_text("v2")
    assert [e for e in errors if "Content Security Policy" in e or "Refused" in e] == []


def test_a_pasted_table_and_a_bad_file_in_place(
    page: Page, live_server: Any, project: Project, tmp_path: Path
) -> None:
    open_project(page, live_server, project)
    panel = page.get_by_role("region", name="Data")
    panel.get_by_role("button", name="Paste").click()
    panel.get_by_label("Table (copy cells").fill("Product\tUnits\nBell\t3\nLamp\t12\n")
    panel.get_by_label("Name").fill("stock")
    panel.get_by_role("button", name="Add table").click()
    expect(panel.get_by_role("button", name="stock")).to_contain_text("2 rows · 2 columns · v1")

    ragged = tmp_path / "orders.csv"
    ragged.write_text("a,b\n1,2\n1,2,3\n")
    panel.get_by_label("Upload").set_input_files(ragged)
    expect(panel.get_by_role("alert")).to_contain_text(
        "orders.csv: Row 3 has 3 cells, the header has 2."
    )
    expect(panel.get_by_role("listitem")).to_have_count(1)
    page.screenshot(path="test-artifacts/data-panel-error.png")

    # The same table again with a column dropped: a new version, and the panel says what went.
    stock = tmp_path / "stock.csv"
    stock.write_text("product\nBell\nLamp\nBulb\n")
    panel.get_by_label("Upload").set_input_files(stock)
    expect(panel.get_by_role("status")).to_contain_text(
        "stock.csv is version 2 of “stock”. Columns gone: units"
    )
    expect(panel.get_by_role("button", name="stock")).to_contain_text("3 rows · 1 column · v2")


def test_the_dataset_dialog_fits_a_narrow_window(
    page: Page, live_server: Any, project: Project
) -> None:
    from studio.services.datasets import dataset_upload

    dataset_upload(project=project, filename="sales.csv", data=SALES.encode())
    page.set_viewport_size({"width": 420, "height": 800})
    open_project(page, live_server, project)
    page.get_by_role("button", name="sales").click()
    dialog = page.get_by_role("dialog", name="Dataset sales")
    expect(dialog.get_by_label("Type of revenue")).to_be_visible()
    box = dialog.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 420
    page.screenshot(path="test-artifacts/data-panel-narrow.png")
