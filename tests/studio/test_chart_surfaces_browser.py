"""A chart draws on every surface, in Chromium, with no policy violation: the studio page's
preview, the API's /v1/views/<token>, the exported file opened from file:// (downloaded with
the studio's own button), and a published widget charting an uploaded dataset. No engine: the
versions and the API generation are rows made here.

A surface whose policy missed Chart.js would leave the canvas blank and report a violation
("Executing inline script violates ... script-src"), which is what issue 14 saw on /v1/views.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Locator, Page, expect

from studio.models import Generation, Project
from studio.services.api_keys import api_key_create
from studio.services.datasets import dataset_upload
from studio.services.shared_views import view_token_for
from studio.services.versions import version_add
from studio.services.widgets import widget_publish
from tests.live_session import sign_in
from ui4a.registry import components, example_path

# Playwright's sync API keeps an event loop running in this thread; the database calls the live
# server's fixtures make here are still plain synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARTIFACTS = Path("test-artifacts")

# Every frame records the policy violations it sees (init scripts run outside the page's CSP).
RECORD_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline"));
});
"""

# Waits (up to 5 s) for Chart.js to have drawn: its chart object on the canvas, and painted
# (non-transparent) pixels read back with getImageData.
CANVAS_PAINT = """async (canvas) => {
  const deadline = Date.now() + 5000;
  for (;;) {
    const data = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
    const chart = typeof Chart !== "undefined" && !!Chart.getChart(canvas);
    if ((chart && painted > 0) || Date.now() > deadline) {
      return { chart, painted, pixels: data.length / 4 };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}"""


@pytest.fixture
def chart_spec() -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(example_path(components()["chart"]).read_text())
    spec["title"] = "Sales"
    return spec


@pytest.fixture
def project(live_server: Any, chart_spec: dict[str, Any]) -> Project:
    owner = get_user_model().objects.create_user("ada")
    project = Project.objects.create(name="Sales dashboard", owner=owner)
    version_add(project=project, spec=chart_spec, kind="generated", label="sales charts")
    return project


@pytest.fixture
def watched(page: Page) -> Page:
    page.context.add_init_script(RECORD_VIOLATIONS)
    return page


def violations_and_console(canvas: Locator, errors: list[str]) -> list[str]:
    """The frame's recorded violations, and any console line that is one."""
    recorded: list[str] = canvas.evaluate("c => c.ownerDocument.defaultView.__violations")
    refused = [e for e in errors if "Content Security Policy" in e or "Refused to" in e]
    return recorded + refused


def assert_chart_draws(canvas: Locator, errors: list[str], where: str) -> None:
    expect(canvas).to_be_visible()
    drawn = canvas.evaluate(CANVAS_PAINT)
    assert drawn["chart"], f"{where}: Chart.js made no chart on the canvas"
    # Two lines, their points, axes and labels: far more than a stray pixel.
    assert drawn["painted"] > 500, f"{where}: the canvas is blank ({drawn})"
    assert violations_and_console(canvas, errors) == [], where


def test_a_chart_draws_in_the_studio_preview_and_in_its_exported_file(
    watched: Page, live_server: Any, project: Project, errors: list[str], tmp_path: Path
) -> None:
    page = watched
    sign_in(page, live_server, project.owner)
    page.goto(f"{live_server.url}/p/{project.id}/")
    preview = page.frame_locator("iframe[title=Preview]")
    assert_chart_draws(preview.locator("canvas").first, errors, "studio preview")
    assert page.evaluate("window.__violations") == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=ARTIFACTS / "chart-surfaces-studio.png")

    page.get_by_text("Export", exact=True).click()
    menu = page.get_by_role("group", name="Export version 1")
    expect(menu.get_by_role("link", name="Spec as JSON")).to_be_visible()
    page.screenshot(path=ARTIFACTS / "chart-surfaces-export-menu.png")
    with page.expect_download() as download:
        menu.get_by_role("link", name="Standalone HTML file").click()
    assert download.value.suggested_filename == "sales-dashboard-v1.html"
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)

    page.goto(saved.as_uri())
    expect(page).to_have_title("Sales")
    assert_chart_draws(page.locator("canvas").first, errors, "exported file")
    page.screenshot(path=ARTIFACTS / "chart-surfaces-exported.png")


def test_a_chart_draws_on_the_api_view(
    watched: Page, live_server: Any, chart_spec: dict[str, Any], errors: list[str]
) -> None:
    key, _ = api_key_create(name="charts")
    generation = Generation.objects.create(
        api_key=key, prompt="sales charts", expert="ui", structured=True, spec=chart_spec
    )
    token = view_token_for(generation_id=generation.id)
    watched.goto(f"{live_server.url}/v1/views/{token}")
    assert_chart_draws(watched.locator("canvas").first, errors, "/v1/views")
    # Both charts, the pie too.
    assert_chart_draws(watched.locator("canvas").nth(1), errors, "/v1/views pie")
    watched.screenshot(path=ARTIFACTS / "chart-surfaces-api-view.png")


def test_the_violation_check_sees_a_blocked_request_in_an_exported_file(
    watched: Page, tmp_path: Path, chart_spec: dict[str, Any], project: Project
) -> None:
    """The listener above is not blind: an exported file refuses even a remote image, and the
    refusal is recorded."""
    from studio.services.exports import version_export_html

    assert project.current_version is not None
    exported = tmp_path / "sales.html"
    exported.write_text(version_export_html(version=project.current_version).content)
    watched.goto(exported.as_uri())
    watched.evaluate(
        """() => new Promise((resolve) => {
          document.addEventListener("securitypolicyviolation", resolve, { once: true });
          const img = new Image();
          img.src = "https://example.invalid/pixel.png";
          document.body.append(img);
        })"""
    )
    recorded = watched.evaluate("window.__violations")
    assert recorded == ["img-src https://example.invalid/pixel.png"]


def test_the_export_menu_offers_the_version_the_preview_shows(
    page: Page, live_server: Any, project: Project, chart_spec: dict[str, Any]
) -> None:
    first = project.current_version
    assert first is not None
    second = version_add(project=project, spec=chart_spec, kind="edited", label="edited: title")
    sign_in(page, live_server, project.owner)
    page.goto(f"{live_server.url}/p/{project.id}/")
    export = page.get_by_text("Export", exact=True)
    export.click()
    menu = page.get_by_role("group", name="Export version 2")
    json_link = menu.get_by_role("link", name="Spec as JSON")
    expect(json_link).to_have_attribute("href", f"/p/{project.id}/versions/{second.id}/export.json")
    export.click()  # closed again
    page.get_by_role("button", name="v1").click()
    expect(page.get_by_text("Viewing version 1 (read-only)")).to_be_visible()
    export.click()
    menu = page.get_by_role("group", name="Export version 1")
    expect(menu.get_by_role("link", name="Standalone HTML file")).to_have_attribute(
        "href", f"/p/{project.id}/versions/{first.id}/export.html"
    )


def test_a_chart_over_an_uploaded_dataset_draws_in_a_published_widget(
    watched: Page, live_server: Any, errors: list[str]
) -> None:
    owner = get_user_model().objects.create_user("grace")
    project = Project.objects.create(name="Bikes", owner=owner)
    rows = "\n".join(f"2025-{m:02d}-1{d},{m * 10 + d}" for m in range(1, 7) for d in range(3))
    dataset_upload(project=project, filename="rides.csv", data=f"day,rides\n{rows}\n".encode())
    spec = {
        "title": "Rides",
        "root": {
            "t": "page",
            "c": [{"t": "chart", "title": "Rides", "data": "m", "x": "day", "y": ["rides"]}],
        },
        "data": {"m": {"from": "rides", "group": "day:month", "agg": {"rides": "sum"}}},
    }
    version_add(project=project, spec=spec, kind="generated", label="rides by month")
    widget = widget_publish(
        project=project, version_id=None, allowed_origins=[], published_by=owner
    )
    watched.goto(f"{live_server.url}/w/{widget.public_id}")
    canvas = watched.locator("canvas").first
    assert_chart_draws(canvas, errors, "published widget")
    labels, values = canvas.evaluate(
        "c => [Chart.getChart(c).data.labels, Chart.getChart(c).data.datasets[0].data]"
    )
    assert labels == [f"2025-{m:02d}" for m in range(1, 7)]
    assert values == [m * 30 + 3 for m in range(1, 7)]  # 10m+0 + 10m+1 + 10m+2
    watched.screenshot(path=ARTIFACTS / "chart-surfaces-widget.png")
