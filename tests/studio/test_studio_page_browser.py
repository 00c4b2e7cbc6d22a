"""The studio page as a designer uses it, without the engine: a Django live server, versions
made directly in the database, and Debian's Chromium.

Selection, outlines and diff marks cross the sandbox only by postMessage; the page stays
within its strict policy, is axe-clean, and lays out at 1280x800 and 420 wide.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import FrameLocator, Page, expect

from studio.models import Project, Version
from studio.services.versions import version_add
from tests.axe import axe_violations
from tests.live_session import sign_in

# Playwright's sync API keeps an event loop running in this thread; the database calls the live
# server's fixtures make here are still plain synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIGNUP: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[1] / "ui4a" / "signup.json").read_text()
)
BUTTON = "/root/c/1/c/4"  # the sign-up button in SIGNUP


@pytest.fixture
def project(live_server: Any) -> Project:
    """A signed-in designer's project with two versions: the sign-up form, then a refinement
    that renamed its button and added a note."""
    owner = get_user_model().objects.create_user("ada", password="not-used-here-42")
    project = Project.objects.create(name="Sign-up flow", owner=owner)
    version_add(
        project=project,
        spec=SIGNUP,
        kind="generated",
        label="a signup form with name, email, a password and a terms checkbox",
        author=owner,
    )
    refined = copy.deepcopy(SIGNUP)
    refined["root"]["c"][1]["c"][4]["label"] = "Create account"
    refined["root"]["c"][1]["c"].insert(4, {"t": "text", "text": "We never share your email."})
    version_add(
        project=project,
        spec=refined,
        kind="refined",
        label="add a privacy note and call the button Create account",
        author=owner,
    )
    return project


def open_project(page: Page, live_server: Any, project: Project) -> FrameLocator:
    assert project.owner is not None
    sign_in(page, live_server, project.owner)
    page.goto(f"{live_server.url}/p/{project.id}/")
    preview = page.frame_locator("iframe[title=Preview]")
    expect(preview.get_by_role("button", name="Create account")).to_be_visible()
    return preview


def select_in_preview(page: Page, preview: FrameLocator, name: str) -> None:
    page.get_by_role("button", name="Select").click()
    expect(page.get_by_role("button", name="Select")).to_have_attribute("aria-pressed", "true")
    preview.get_by_role("button", name=name).click()


def csp_errors(errors: list[str]) -> list[str]:
    return [e for e in errors if "Content Security Policy" in e or "Refused to" in e]


def test_it_selects_a_button_in_the_preview_instead_of_pressing_it(
    page: Page, live_server: Any, project: Project, errors: list[str]
) -> None:
    preview = open_project(page, live_server, project)
    state = page.get_by_label("View state")
    select_in_preview(page, preview, "Create account")

    inspector = page.get_by_role("complementary", name="Inspector")
    expect(inspector.get_by_role("heading", name="button 'Create account'")).to_be_visible()
    expect(inspector.get_by_text("/root/c/1/c/5")).to_be_visible()
    expect(page.get_by_text("Changing: button 'Create account'")).to_be_visible()
    # Outlined in the frame, by the design layer (the view's own DOM is untouched).
    expect(preview.locator(".u4-design-selected")).to_have_count(1)
    # The click selected; it did not run the button's action.
    expect(state).not_to_contain_text('"submitted": true')

    # Escape clears the selection; Interact mode presses buttons again.
    page.keyboard.press("Escape")
    expect(page.get_by_text("Changing: button 'Create account'")).to_be_hidden()
    expect(preview.locator(".u4-design-selected")).to_have_count(0)
    page.get_by_role("button", name="Interact").click()
    preview.get_by_role("button", name="Create account").click()
    expect(state).to_contain_text('"submitted": true')
    page.screenshot(path="test-artifacts/studio-page-selected.png")
    assert csp_errors(errors) == []


def test_design_mode_listens_only_to_its_parent_and_the_page_only_to_its_frame(
    page: Page, live_server: Any, project: Project
) -> None:
    preview = open_project(page, live_server, project)
    frame = next(f for f in page.frames if f != page.main_frame)
    # The frame's own window (or anything not its parent) cannot turn design mode on ...
    frame.evaluate("() => window.postMessage({type: 'ui4a.design', on: true}, '*')")
    preview.get_by_role("button", name="Create account").click()
    expect(page.get_by_label("View state")).to_contain_text('"submitted": true')
    expect(page.get_by_text("Changing:")).to_be_hidden()
    # ... and a window that is not the preview frame cannot select for the page.
    page.evaluate(
        "() => window.postMessage({type: 'ui4a.select', node: '/root/c/0', kind: 'heading',"
        " label: 'forged'}, '*')"
    )
    page.wait_for_timeout(200)
    expect(page.get_by_text("Changing:")).to_be_hidden()
    expect(page.get_by_role("heading", name="heading 'Create your account'")).to_have_count(0)


def test_the_frame_draws_diff_marks_and_walks_up_for_removed_nodes(
    page: Page, live_server: Any, project: Project
) -> None:
    preview = open_project(page, live_server, project)
    page.evaluate(
        """() => document.getElementById("preview").contentWindow.postMessage({
            type: "ui4a.highlight", marks: [
              {node: "/root/c/1/c/4", change: "added"},
              {node: "/root/c/1/c/5", change: "changed"},
              {node: "/root/c/1/c/7", change: "removed"},
              {node: "javascript:alert(1)", change: "added"},
              {node: "/root/c/0", change: "exploded"}]}, "*")"""
    )
    expect(preview.locator(".u4-design-added")).to_have_count(1)
    expect(preview.locator(".u4-design-changed")).to_have_count(1)
    # The removed node is not in this version: its container carries the mark.
    expect(preview.locator(".u4-design-removed .u4-design-tag")).to_have_text("removed inside")
    expect(preview.locator(".u4-design-box")).to_have_count(3)
    page.screenshot(path="test-artifacts/studio-page-marks.png")
    page.evaluate(
        """() => document.getElementById("preview").contentWindow.postMessage(
            {type: "ui4a.highlight", marks: []}, "*")"""
    )
    expect(preview.locator(".u4-design-box")).to_have_count(0)


def test_the_preview_keeps_its_sandbox_and_the_page_its_policy(
    page: Page, live_server: Any, project: Project, errors: list[str]
) -> None:
    open_project(page, live_server, project)
    sandbox = (page.locator("iframe[title=Preview]").get_attribute("sandbox") or "").split()
    assert sandbox == ["allow-scripts", "allow-forms"]
    frame = next(f for f in page.frames if f != page.main_frame)
    reach = "() => { try { return window.parent.document.title; } catch (e) { return e.name; } }"
    assert frame.evaluate(reach) == "SecurityError"
    policy = page.request.get(f"{live_server.url}/p/{project.id}/").headers[
        "content-security-policy"
    ]
    assert "'unsafe-inline'" not in policy and "'unsafe-eval'" not in policy
    # Preact and htm load as modules from our own static files, with no policy violation.
    assert page.evaluate("() => document.querySelector('#side .timeline') !== null")
    assert csp_errors(errors) == []


def test_the_studio_page_has_no_serious_accessibility_violations(
    page: Page, live_server: Any, project: Project
) -> None:
    preview = open_project(page, live_server, project)
    select_in_preview(page, preview, "Create account")
    expect(page.get_by_role("heading", name="button 'Create account'")).to_be_visible()
    # The views inside the frame have their own axe tests (tests/ui4a); this is the page.
    assert axe_violations(page, iframes=False) == []


def test_it_lays_out_three_columns_at_1280_and_one_at_420(
    page: Page, live_server: Any, project: Project
) -> None:
    page.set_viewport_size({"width": 1280, "height": 800})
    open_project(page, live_server, project)
    side, stage, inspector = (
        page.locator(sel).bounding_box() for sel in ("#side", ".stage", "#inspector")
    )
    assert side and stage and inspector
    assert side["x"] < stage["x"] < inspector["x"]
    for box in (side, stage, inspector):
        assert box["y"] + box["height"] <= 800  # nothing below the fold at 1280x800
    assert stage["width"] >= 600
    page.screenshot(path="test-artifacts/studio-page-1280.png")

    page.set_viewport_size({"width": 420, "height": 860})
    expect(page.get_by_label("Describe the interface")).to_be_visible()
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= 420, f"the page scrolls sideways at 420 wide ({width}px)"
    stage, side = (page.locator(sel).bounding_box() for sel in (".stage", "#side"))
    assert stage and side and stage["y"] < side["y"]  # one column, the preview first
    page.screenshot(path="test-artifacts/studio-page-420.png", full_page=True)


def test_it_edits_the_selected_buttons_label_and_refuses_an_empty_one_in_place(
    page: Page, live_server: Any, project: Project
) -> None:
    preview = open_project(page, live_server, project)
    select_in_preview(page, preview, "Create account")
    label = page.get_by_role("textbox", name="Label", exact=True)
    expect(label).to_have_value("Create account")
    label.fill("Join now")
    label.press("Enter")
    expect(preview.get_by_role("button", name="Join now")).to_be_visible()
    expect(page.get_by_role("button", name="v3")).to_contain_text("edited:")
    assert Version.objects.filter(project=project).count() == 3

    too_long = "Join now and get every newsletter we will ever write, for free, forever"
    label.fill(too_long)
    label.press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("label")
    expect(label).to_have_value(too_long)  # what was typed stays, next to the refusal
    expect(preview.get_by_role("button", name="Join now")).to_be_visible()
    assert Version.objects.filter(project=project).count() == 3
    page.screenshot(path="test-artifacts/studio-page-edit-refused.png")

    page.get_by_role("button", name="Undo").click()
    expect(preview.get_by_role("button", name="Create account")).to_be_visible()
    page.get_by_role("button", name="Redo").click()
    expect(preview.get_by_role("button", name="Join now")).to_be_visible()


def test_it_opens_an_old_version_and_compares_two(
    page: Page, live_server: Any, project: Project
) -> None:
    preview = open_project(page, live_server, project)
    page.get_by_role("button", name="v1").click()
    expect(page.get_by_text("Viewing version 1")).to_be_visible()
    expect(preview.get_by_role("button", name="Sign up")).to_be_visible()
    page.get_by_role("button", name="Back to current").click()
    expect(preview.get_by_role("button", name="Create account")).to_be_visible()

    page.get_by_role("button", name="Compare two versions…").click()
    page.get_by_role("button", name="Show changes").click()
    changes = page.get_by_role("list", name="Changes")
    expect(changes.get_by_role("button").first).to_be_visible()
    expect(preview.locator(".u4-design-added")).not_to_have_count(0)
    changes.get_by_role("button").first.click()
    expect(preview.locator(".u4-design-selected")).to_have_count(1)
    page.screenshot(path="test-artifacts/studio-page-compare.png")
