"""The studio's Publish dialog as a designer uses it, in Chromium against the live server: publish
the latest version for a site, see its address, views and snippets, copy one, fix a refused
origin in place, and unpublish (its page is then a 410). Axe-clean, and photographed."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from studio.models import Project, Widget
from tests.axe import axe_violations
from tests.studio.test_studio_page_browser import open_project, project

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

__all__ = ["project"]  # the fixture, shared with the studio page's tests


def test_it_publishes_shows_the_snippets_and_unpublishes(
    page: Page, live_server: Any, project: Project, errors: list[str]
) -> None:
    open_project(page, live_server, project)
    page.get_by_role("button", name="Publish…").click()
    dialog = page.get_by_role("dialog", name="Publish as a widget")
    expect(dialog.get_by_text("Nothing published yet.")).to_be_visible()

    dialog.get_by_label("Sites allowed to embed it").fill("https://shop.example/embed")
    dialog.get_by_role("button", name="Publish", exact=True).click()
    expect(dialog.get_by_role("alert")).to_contain_text("no path, query or fragment")
    # What was typed stays, to be fixed in place.
    expect(dialog.get_by_label("Sites allowed to embed it")).to_have_value(
        "https://shop.example/embed"
    )
    dialog.get_by_label("Sites allowed to embed it").fill(
        "https://Shop.example\nhttp://localhost:3000"
    )
    dialog.get_by_role("button", name="Publish", exact=True).click()

    card = dialog.get_by_role("article")
    expect(card).to_be_visible()
    widget = Widget.objects.get(project=project)
    expect(card.get_by_role("link", name=f"{live_server.url}/w/{widget.public_id}")).to_be_visible()
    expect(card.get_by_text("Latest", exact=True)).to_be_visible()
    expect(card.get_by_text("0 views")).to_be_visible()
    expect(card.get_by_label("Allowed origins")).to_have_value(
        "https://shop.example\nhttp://localhost:3000"
    )
    loader = card.get_by_label("Embed with the loader (sizes the frame to fit)")
    expect(loader).to_have_value(
        f'<div data-macaron-widget="{widget.public_id}" data-title="Sign-up flow (Macaron widget)">'
        f'</div>\n<script src="{live_server.url}/w/embed.js" async></script>'
    )
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    card.get_by_role("button", name="Copy").first.click()
    expect(card.get_by_text("Copied.")).to_be_visible()
    assert page.evaluate("navigator.clipboard.readText()") == loader.input_value()
    # The owner picks a button whose clicks the host hears too.
    card.get_by_role("checkbox", name="Create account").check()
    expect(card.get_by_text("“Create account” clicks now reach the host.")).to_be_visible()
    widget.refresh_from_db()
    assert widget.event_buttons == ["Create account"]
    assert axe_violations(page) == []
    page.screenshot(path="test-artifacts/publish-dialog.png")

    card.get_by_label("Allowed origins").fill("*")
    card.get_by_role("button", name="Save origins").click()
    expect(card.get_by_role("alert")).to_contain_text("wildcards are not allowed")
    widget.refresh_from_db()
    assert widget.allowed_origins == ["https://shop.example", "http://localhost:3000"]

    card.get_by_role("button", name="Unpublish…").click()
    card.get_by_role("button", name="Unpublish now").click()
    expect(dialog.get_by_text("Unpublished (1)")).to_be_visible()
    expect(dialog.get_by_role("article")).to_have_count(0)
    response = page.request.get(f"{live_server.url}/w/{widget.public_id}")
    assert response.status == 410

    # A widget with no sites is a link only: no snippet to paste anywhere.
    first = project.versions.get(number=1)
    dialog.get_by_label("Version").select_option(value=str(first.id))
    dialog.get_by_role("button", name="Publish", exact=True).click()
    card = dialog.get_by_role("article")
    expect(card.get_by_text("Pinned to v1", exact=True)).to_be_visible()
    expect(card.get_by_text("Link only", exact=True)).to_be_visible()
    expect(card.get_by_text("Link only: no site may frame it.", exact=False)).to_be_visible()
    expect(card.get_by_role("button", name="Copy")).to_have_count(0)
    assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
