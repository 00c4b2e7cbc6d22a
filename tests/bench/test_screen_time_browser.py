"""The screen-time bench's browser clock: the page times the Generate click and the preview
frame the first painted frame with a component, so the figure carries no Playwright polling."""

from __future__ import annotations

import urllib.parse

import pytest
from playwright.sync_api import Frame, Page

from bench.screen_time import PAGE_CLOCKS, first_component_s

pytestmark = pytest.mark.browser

STUDIO_LIKE = (
    '<button id="generate">Generate</button>'
    '<iframe title="Preview" sandbox="allow-scripts" srcdoc="<main id=root></main>"></iframe>'
)


def preview_frame(page: Page) -> Frame:
    frame = page.locator("iframe[title=Preview]").element_handle().content_frame()
    assert frame is not None
    return frame


def test_the_first_component_is_timed_from_the_click_to_its_painted_frame(page: Page) -> None:
    page.add_init_script(PAGE_CLOCKS)
    page.goto("data:text/html," + urllib.parse.quote(STUDIO_LIKE))
    preview = preview_frame(page)
    preview.wait_for_load_state()
    page.locator("#generate").click()
    # The page (a heading is a container's child, not a component of its own) then a component.
    preview.evaluate(
        """() => new Promise((done) => setTimeout(() => {
          const page = document.createElement("div");
          page.dataset.ui4aNode = "/root";
          document.getElementById("root").append(page);
          setTimeout(() => {
            const card = document.createElement("section");
            card.dataset.ui4aNode = "/root/c/0";
            page.append(card);
            done();
          }, 400);
        }, 100))"""
    )
    seconds = first_component_s(page)
    assert seconds is not None and 0.5 <= seconds < 3.0


def test_no_click_no_figure(page: Page) -> None:
    page.add_init_script(PAGE_CLOCKS)
    page.goto("data:text/html," + urllib.parse.quote(STUDIO_LIKE))
    preview = preview_frame(page)
    preview.evaluate(
        "() => { const n = document.createElement('p'); n.dataset.ui4aNode = '/root/c/0';"
        " document.body.append(n); }"
    )
    assert first_component_s(page) is None
