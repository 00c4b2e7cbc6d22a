"""The projects page as a designer uses it, in Debian's Chromium against Daphne: sign in through
the printed one-time link, create, rename, search, duplicate and delete (asked first), at desktop
and phone widths, by keyboard, axe-clean. No engine is needed, so no worker runs."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from inference.paths import REPO_ROOT
from studio.stack import Stack, running_web
from tests.axe import axe_violations

pytestmark = pytest.mark.browser

ARTIFACTS = REPO_ROOT / "test-artifacts"
PROJECT_URL = re.compile(r"/p/([0-9a-f-]{36})/$")


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    with running_web(tmp_path_factory.mktemp("web")) as stack:
        yield stack


def seed_project(stack: Stack, *, owner: str, name: str) -> None:
    """A project with one version, as a finished generation leaves it (no engine runs here)."""
    spec = REPO_ROOT / "tests" / "studio" / "newsletter.json"
    code = (
        "import json\n"
        "from django.contrib.auth.models import User\n"
        "from studio.services.projects import project_create\n"
        "from studio.services.versions import version_add\n"
        f"owner = User.objects.get(username={owner!r})\n"
        f"project = project_create(owner=owner, name={name!r})\n"
        f"spec = json.loads(open({str(spec)!r}).read())\n"
        "version_add(project=project, spec=spec, kind='generated', label='a newsletter')\n"
    )
    argv = [sys.executable, "manage.py", "shell", "-c", code]
    subprocess.run(argv, cwd=REPO_ROOT, env=stack.env, check=True, timeout=120)


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"projects-{name}.png"), full_page=True)


def card(page: Page, name: str) -> Any:
    return page.get_by_role("listitem").filter(
        has=page.get_by_role("heading", name=name, exact=True)
    )


def test_a_designer_signs_in_by_link_and_manages_projects(page: Page, web: Stack) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.set_viewport_size({"width": 1280, "height": 800})

    # Signed out, the studio sends us to sign in.
    page.goto(web.url + "/")
    expect(page).to_have_url(re.compile(r"/signin/\?next=/$"))
    expect(page.get_by_role("heading", name="Sign in", exact=True)).to_be_visible()
    assert axe_violations(page) == []

    # The printed link signs this browser in, once.
    link = web.signin_url("ada")
    page.goto(link)
    expect(page.get_by_role("heading", name="Projects", exact=True)).to_be_visible()
    expect(page.get_by_role("navigation", name="Account")).to_contain_text("Signed in as ada")
    expect(page.get_by_text("No projects yet")).to_be_visible()
    shot(page, "empty")

    # New project opens the studio on it; back on the list it is there, untitled.
    page.get_by_role("button", name="New project").click()
    expect(page).to_have_url(PROJECT_URL)
    page.goto(web.url + "/")
    untitled = card(page, "Untitled project")
    expect(untitled.get_by_text("No version yet")).to_be_visible()

    # Rename by keyboard: open the disclosure, type, Enter.
    untitled.locator("summary").focus()
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    expect(untitled.get_by_label("New name")).to_be_focused()
    page.keyboard.press("ControlOrMeta+A")
    page.keyboard.type("Quarterly report")
    shot(page, "renaming")
    page.keyboard.press("Enter")
    expect(page.get_by_role("status")).to_contain_text("Renamed to “Quarterly report”.")
    expect(card(page, "Quarterly report")).to_be_visible()

    # A project with a version shows it live in its thumbnail, and duplicates with it.
    seed_project(web, owner="ada", name="Newsletter signup")
    page.reload()
    newsletter = card(page, "Newsletter signup")
    thumbnail = page.frame_locator('iframe[title="Preview of Newsletter signup"]')
    expect(thumbnail.get_by_text("Join our newsletter")).to_be_visible()
    newsletter.get_by_role("button", name="Duplicate").click()
    expect(page.get_by_role("status")).to_contain_text("as “Newsletter signup (copy)”")
    copy = page.frame_locator('iframe[title="Preview of Newsletter signup (copy)"]')
    expect(copy.get_by_text("Join our newsletter")).to_be_visible()
    expect(page.get_by_text("3 projects")).to_be_visible()
    shot(page, "list")
    assert axe_violations(page) == []

    # Search by name, in any case.
    page.get_by_label("Search projects by name").fill("NEWS")
    page.get_by_label("Search projects by name").press("Enter")
    expect(page.get_by_text("2 projects matching “NEWS”")).to_be_visible()
    expect(card(page, "Quarterly report")).to_have_count(0)
    shot(page, "search")

    # Delete asks first; Cancel keeps it, Delete removes it and returns to the search.
    card(page, "Newsletter signup (copy)").get_by_role("link", name="Delete").click()
    expect(page.get_by_role("heading", name="Delete “Newsletter signup (copy)”?")).to_be_visible()
    shot(page, "delete-confirm")
    assert axe_violations(page) == []
    page.get_by_role("link", name="Cancel").click()
    expect(card(page, "Newsletter signup (copy)")).to_be_visible()
    card(page, "Newsletter signup (copy)").get_by_role("link", name="Delete").click()
    page.get_by_role("button", name="Delete project").click()
    expect(page.get_by_role("status")).to_contain_text("Deleted “Newsletter signup (copy)”.")
    expect(page).to_have_url(re.compile(r"/\?q=NEWS$"))
    expect(card(page, "Newsletter signup (copy)")).to_have_count(0)
    expect(card(page, "Newsletter signup")).to_be_visible()

    # A narrow window: one column, nothing wider than the screen.
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(web.url + "/")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - innerWidth")
    assert overflow <= 0, f"the page scrolls sideways by {overflow}px"
    shot(page, "narrow")
    assert errors == []


def test_a_used_link_is_dead_and_another_user_sees_nothing_of_ada(
    browser: Browser, page: Page, web: Stack
) -> None:
    link = web.signin_url("ada")
    assert re.fullmatch(re.escape(web.url) + r"/signin/[\w-]+/[0-9a-z]+-[0-9a-f]+/", link)
    page.goto(link)
    page.get_by_role("button", name="New project").click()
    expect(page).to_have_url(PROJECT_URL)
    match = PROJECT_URL.search(page.url)
    assert match is not None
    ada_project = match.group(1)

    other = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        bob = other.new_page()
        bob.goto(link)  # ada's link, used already
        expect(bob.get_by_role("alert")).to_contain_text("expired or was already used")
        shot(bob, "used-link")
        bob.goto(web.signin_url("bob"))
        expect(bob.get_by_role("navigation", name="Account")).to_contain_text("bob")
        expect(bob.get_by_text("No projects yet")).to_be_visible()
        for path in ["/", "/view"]:
            response = bob.goto(f"{web.url}/p/{ada_project}{path}")
            assert response is not None and response.status == 404, path
        # Signing out is a button (a POST); afterwards the studio asks to sign in again.
        bob.goto(web.url + "/")
        bob.get_by_role("button", name="Sign out").click()
        expect(bob.get_by_role("heading", name="Sign in", exact=True)).to_be_visible()
        bob.goto(f"{web.url}/p/{ada_project}/")
        expect(bob).to_have_url(re.compile(r"/signin/\?next="))
    finally:
        other.close()
