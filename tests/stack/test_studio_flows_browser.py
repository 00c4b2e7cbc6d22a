"""The studio's flows as a designer goes through them: Debian's Chromium against the real stack
(Redis, a Celery worker with the engine, Daphne). One test per flow; each leaves a screenshot
under test-artifacts/flow-*.png.

Flows that need the model generate for real. The others start from versions made in the
stack's database (what a finished generation leaves), so they test the page and not the
model's luck.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import FrameLocator, Page, expect

import ui4a
from inference.paths import REPO_ROOT
from studio.stack import Stack, free_port, new_stack
from tests.stack.conftest import stack_shell

pytestmark = [pytest.mark.stack, pytest.mark.browser]

ARTIFACTS = REPO_ROOT / "test-artifacts"
PROJECT_URL = re.compile(r"/p/([0-9a-f-]{36})/$")
SIGNUP = "a signup form with name, email, a password and a terms checkbox"
FORM: dict[str, Any] = json.loads((REPO_ROOT / "tests" / "ui4a" / "signup.json").read_text())
# A small sales dashboard: a heading, a note, a chart and a button; the chart is /root/c/2.
DASHBOARD: dict[str, Any] = {
    "root": {
        "t": "page",
        "c": [
            {"t": "heading", "text": "Sales"},
            {"t": "text", "text": "Revenue and cost for the first four months."},
            {
                "t": "chart",
                "kind": "line",
                "title": "Revenue by month",
                "data": "sales",
                "x": "month",
                "y": ["revenue"],
            },
            {"t": "button", "label": "Export"},
        ],
    },
    "data": {
        "sales": [
            {"month": "Jan", "revenue": 120},
            {"month": "Feb", "revenue": 150},
            {"month": "Mar", "revenue": 170},
            {"month": "Apr", "revenue": 210},
        ]
    },
}
CHART = "/root/c/2"

SEED = """
import json
from django.contrib.auth import get_user_model
from studio.services.projects import project_create
from studio.services.versions import version_add
owner, _ = get_user_model().objects.get_or_create(username={owner!r})
project = project_create(owner=owner, name={name!r})
for kind, label, spec in json.loads({versions!r}):
    version_add(project=project, spec=spec, kind=kind, label=label, author=owner)
print(project.id)
"""

SPECS = """
import json
from studio.models import Version
print(json.dumps([[v.number, v.kind, v.spec] for v in
                  Version.objects.filter(project_id={project!r}).order_by("number")]))
"""


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"flow-{name}.png"))


def seed(stack: Stack, owner: str, name: str, versions: list[tuple[str, str, Any]]) -> str:
    """A project of `owner` with these (kind, label, spec) versions; returns its id."""
    code = SEED.format(owner=owner, name=name, versions=json.dumps(versions))
    return stack_shell(stack, code)


def specs_of(stack: Stack, project: str) -> list[tuple[int, str, dict[str, Any]]]:
    found: list[list[Any]] = json.loads(stack_shell(stack, SPECS.format(project=project)))
    return [(number, kind, spec) for number, kind, spec in found]


def signed_in(page: Page, stack: Stack, username: str) -> None:
    page.goto(stack.signin_url(username))
    expect(page.get_by_role("heading", name="Projects", exact=True)).to_be_visible()


def open_project(page: Page, stack: Stack, project: str) -> FrameLocator:
    page.goto(f"{stack.url}/p/{project}/")
    expect(page.locator("#connection")).to_have_text("Connected")
    return page.frame_locator("iframe[title=Preview]")


def two_versions(stack: Stack, owner: str, name: str) -> str:
    """The sign-up form, then a refinement that renamed its button."""
    refined = copy.deepcopy(FORM)
    refined["root"]["c"][1]["c"][4]["label"] = "Create account"
    return seed(
        stack,
        owner,
        name,
        [("generated", SIGNUP, FORM), ("refined", "call the button Create account", refined)],
    )


def prompt(page: Page, text: str, *, expert: str = "ui") -> None:
    page.get_by_label("Describe the interface").fill(text)
    page.get_by_label("Expert", exact=True).select_option(expert)
    page.locator("#generate").click()


def wait_done(page: Page, timeout_s: float = 300) -> None:
    expect(page.locator("#status")).to_have_text(
        re.compile(r"^(Done|Generation failed|Stopped)"), timeout=timeout_s * 1000
    )
    expect(page.locator("#status")).to_have_text(re.compile(r"^Done"))


def select_in_preview(page: Page, preview: FrameLocator, target: Any) -> None:
    page.get_by_role("button", name="Select", exact=True).click()
    target.click()


def test_sign_in_through_the_printed_url(page: Page, stack: Stack) -> None:
    link = stack.signin_url("grace")  # what `make run` prints, via `manage.py signin_url`
    page.goto(f"{stack.url}/")
    expect(page).to_have_url(re.compile(r"/signin/"))  # the studio needs a signed-in user
    page.goto(link)
    expect(page.get_by_role("heading", name="Projects", exact=True)).to_be_visible()
    expect(page.get_by_text("Signed in as grace")).to_be_visible()
    shot(page, "01-signed-in")
    page.context.clear_cookies()
    page.goto(link)  # one time only
    expect(page).to_have_url(re.compile(r"/signin/"))
    expect(page.get_by_role("alert")).to_be_visible()


def test_create_and_rename_a_project(page: Page, stack: Stack, errors: list[str]) -> None:
    signed_in(page, stack, "ada")
    page.get_by_role("button", name="New project").click()
    expect(page).to_have_url(PROJECT_URL)
    name = page.get_by_label("Project name")
    name.fill("Quarterly sales")
    name.press("Enter")
    expect(page.locator(".saving")).to_be_hidden()
    shot(page, "02-renamed")
    page.get_by_role("link", name="Projects").click()
    expect(page.get_by_role("heading", name="Quarterly sales", exact=True)).to_be_visible()
    assert errors == []


def test_generate_then_refine_makes_two_versions(
    page: Page, stack: Stack, errors: list[str]
) -> None:
    signed_in(page, stack, "ada")
    page.get_by_role("button", name="New project").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    expect(page.locator("#generate")).to_have_text("Generate")
    prompt(page, SIGNUP)
    wait_done(page)
    versions = page.get_by_role("region", name="Versions")
    expect(versions.get_by_role("button", name=re.compile("^v1"))).to_contain_text(SIGNUP)

    # The next prompt refines what is there; the button says so.
    expect(page.locator("#generate")).to_have_text("Refine")
    # Ctrl+Enter sends the prompt, like the button.
    page.get_by_label("Describe the interface").fill(
        "add a Cancel button next to the submit button"
    )
    page.keyboard.press("Control+Enter")
    wait_done(page)
    expect(versions.get_by_role("button", name=re.compile("^v2"))).to_contain_text("Cancel")
    expect(versions.get_by_role("button", name=re.compile("^v2"))).to_contain_text("current")
    shot(page, "03-generated-and-refined")
    match = PROJECT_URL.search(page.url)
    assert match
    (_, _, first), (_, second_kind, second) = specs_of(stack, match.group(1))
    assert second_kind == "refined"
    assert second != first
    assert errors == []


def test_diff_two_versions_and_see_the_change_highlighted(page: Page, stack: Stack) -> None:
    signed_in(page, stack, "ada")
    preview = open_project(page, stack, two_versions(stack, "ada", "Diff me"))
    page.get_by_role("button", name="Compare two versions…").click()
    page.get_by_role("button", name="Show changes").click()
    changes = page.get_by_role("list", name="Changes")
    expect(changes).to_contain_text("Create account")
    expect(preview.locator(".u4-design-changed")).to_have_count(1)
    # The mark is drawn in the design layer, over the changed button.
    mark = preview.locator(".u4-design-changed").bounding_box()
    button = preview.get_by_role("button", name="Create account").bounding_box()
    assert mark and button
    assert mark["x"] <= button["x"] and mark["y"] <= button["y"]
    assert mark["x"] + mark["width"] >= button["x"] + button["width"]
    assert mark["y"] + mark["height"] >= button["y"] + button["height"]
    shot(page, "04-diff")


def test_select_a_button_and_change_its_label(page: Page, stack: Stack, errors: list[str]) -> None:
    signed_in(page, stack, "ada")
    project = two_versions(stack, "ada", "Edit me")
    preview = open_project(page, stack, project)
    select_in_preview(page, preview, preview.get_by_role("button", name="Create account"))
    inspector = page.get_by_role("complementary", name="Inspector")
    expect(inspector.get_by_role("heading", name="button 'Create account'")).to_be_visible()
    expect(preview.locator(".u4-design-selected")).to_have_count(1)
    label = inspector.get_by_role("textbox", name="Label", exact=True)
    label.fill("Join now")
    label.press("Enter")
    expect(preview.get_by_role("button", name="Join now")).to_be_visible()
    v3 = page.get_by_role("button", name=re.compile("^v3"))
    expect(v3).to_contain_text("edited: label of button 'Create account'")
    shot(page, "05-edited")
    assert specs_of(stack, project)[-1][1] == "edited"
    assert errors == []


def test_undo_and_redo_a_manual_edit(page: Page, stack: Stack) -> None:
    signed_in(page, stack, "ada")
    preview = open_project(page, stack, two_versions(stack, "ada", "Undo me"))
    select_in_preview(page, preview, preview.get_by_role("button", name="Create account"))
    label = page.get_by_role("textbox", name="Label", exact=True)
    label.fill("Join now")
    label.press("Enter")
    expect(preview.get_by_role("button", name="Join now")).to_be_visible()
    page.get_by_role("button", name="Undo").click()
    expect(preview.get_by_role("button", name="Create account")).to_be_visible()
    expect(page.get_by_role("button", name="Undo")).to_be_disabled()  # generations stay
    shot(page, "06-undone")
    page.get_by_role("button", name="Redo").click()
    expect(preview.get_by_role("button", name="Join now")).to_be_visible()
    expect(page.get_by_role("button", name="Redo")).to_be_disabled()
    # The same from the keyboard, with the focus outside any text field.
    page.locator("body").click(position={"x": 5, "y": 400})
    page.keyboard.press("Control+z")
    expect(preview.get_by_role("button", name="Create account")).to_be_visible()
    page.keyboard.press("Control+Shift+z")
    expect(preview.get_by_role("button", name="Join now")).to_be_visible()


def test_revert_to_version_1(page: Page, stack: Stack) -> None:
    signed_in(page, stack, "ada")
    project = two_versions(stack, "ada", "Revert me")
    preview = open_project(page, stack, project)
    page.get_by_role("button", name=re.compile("^v1")).click()
    expect(page.get_by_text("Viewing version 1 (read-only)")).to_be_visible()
    page.get_by_role("button", name="Revert to this").click()
    expect(page.get_by_role("button", name=re.compile("^v3"))).to_contain_text("current")
    expect(preview.get_by_role("button", name="Sign up")).to_be_visible()
    shot(page, "07-reverted")
    found = specs_of(stack, project)
    assert [kind for _, kind, _ in found] == ["generated", "refined", "reverted"]
    assert found[2][2] == found[0][2]


def test_fork_a_version_into_a_new_project(page: Page, stack: Stack) -> None:
    signed_in(page, stack, "ada")
    project = two_versions(stack, "ada", "Fork me")
    open_project(page, stack, project)
    page.get_by_role("button", name=re.compile("^v1")).click()
    page.get_by_role("button", name="Fork").click()
    expect(page).not_to_have_url(re.compile(project))
    expect(page).to_have_url(PROJECT_URL)
    preview = page.frame_locator("iframe[title=Preview]")
    expect(preview.get_by_role("button", name="Sign up")).to_be_visible()
    expect(page.get_by_label("Project name")).to_have_value(re.compile("Fork me"))
    shot(page, "08-forked")
    match = PROJECT_URL.search(page.url)
    assert match
    assert [kind for _, kind, _ in specs_of(stack, match.group(1))] == ["forked"]
    assert len(specs_of(stack, project)) == 2  # the original is untouched


def test_targeted_refinement_of_a_chart_keeps_everything_else(
    page: Page, stack: Stack, errors: list[str]
) -> None:
    signed_in(page, stack, "ada")
    # Stored as a finished generation leaves a spec: repaired, so every node has its id.
    base = ui4a.repair(DASHBOARD).spec
    project = seed(stack, "ada", "Dashboard", [("generated", "a sales dashboard", base)])
    preview = open_project(page, stack, project)
    select_in_preview(page, preview, preview.locator(f'[data-ui4a-node="{CHART}"]'))
    expect(page.get_by_text("Changing: chart 'Revenue by month'")).to_be_visible()
    prompt(page, "make this a bar chart")
    wait_done(page)
    shot(page, "09-targeted")
    (_, _, before), (_, kind, after) = specs_of(stack, project)
    assert kind == "targeted"
    assert before == base
    # Everything outside the chart's subtree is kept exactly: putting the old chart back
    # gives the old tree. State and data may only gain what the new chart reads.
    restored = copy.deepcopy(after["root"])
    restored["c"][2] = before["root"]["c"][2]
    assert restored == before["root"]
    for part in ("state", "data"):
        kept = {k: v for k, v in after.get(part, {}).items() if k in before.get(part, {})}
        assert kept == before.get(part, {})
    assert after["root"]["c"][2]["t"] == "chart"
    # The diff says so too: every change it lists is inside the chart, or the state and data
    # entries the new chart reads (checked above to only gain keys).
    listed = page.request.get(f"{stack.url}/p/{project}/versions").json()["versions"]
    v1, v2 = (v["id"] for v in listed)
    changes = page.request.get(f"{stack.url}/p/{project}/diff?from={v1}&to={v2}").json()
    assert changes["changes"], changes
    assert any(c["path"].startswith(CHART) for c in changes["changes"]), changes
    assert all(
        c["path"].startswith(CHART) or c["path"] in ("/state", "/data") for c in changes["changes"]
    ), changes
    assert errors == []


def test_stop_a_generation(page: Page, stack: Stack) -> None:
    signed_in(page, stack, "ada")
    page.get_by_role("button", name="New project").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    prompt(page, "a full admin console with users, roles, audit log, billing and settings tabs")
    expect(page.get_by_label("Generation progress")).to_contain_text(re.compile(r"[1-9]\d* tok"))
    # A refinement while this one runs is refused with a message, from another tab too.
    match = PROJECT_URL.search(page.url)
    assert match
    refused = page.evaluate(
        """(project) => new Promise((resolve) => {
            const ws = new WebSocket(location.origin.replace("http", "ws") + "/ws/studio/");
            ws.onmessage = (e) => { const m = JSON.parse(e.data);
                if (m.type === "error") { ws.close(); resolve(m); } };
            ws.onopen = () => ws.send(JSON.stringify(
                {type: "generate", prompt: "make it blue", expert: "ui", project}));
        })""",
        match.group(1),
    )
    assert refused["code"] == "generation_running", refused
    page.get_by_role("button", name="Stop").click()
    expect(page.locator("#status")).to_have_text("Stopped. The current version is unchanged.")
    expect(page.locator("#generate")).to_be_enabled()
    shot(page, "10-stopped")
    assert specs_of(stack, match.group(1)) == []


def test_a_second_user_cannot_open_or_drive_the_first_users_project(
    page: Page, stack: Stack
) -> None:
    project = two_versions(stack, "ada", "Ada's secret")
    signed_in(page, stack, "eve")
    expect(page.get_by_text("Ada's secret")).to_have_count(0)
    response = page.goto(f"{stack.url}/p/{project}/")
    assert response is not None and response.status == 404
    expect(page.get_by_role("heading", name="Not found")).to_be_visible()
    expect(page.get_by_text("Ada's secret")).to_have_count(0)
    shot(page, "11-not-yours")
    replies = page.evaluate(
        """(project) => new Promise((resolve) => {
            const url = location.origin.replace("http", "ws") + "/ws/studio/?project=" + project;
            const ws = new WebSocket(url);
            const replies = [];
            ws.onmessage = (e) => { replies.push(JSON.parse(e.data));
                if (replies.length === 2) { ws.close(); resolve(replies); } };
            ws.onopen = () => ws.send(JSON.stringify(
                {type: "generate", prompt: "delete everything", expert: "ui", project}));
        })""",
        project,
    )
    assert [r.get("code") for r in replies] == ["unknown_project", "unknown_project"]
    assert len(specs_of(stack, project)) == 2


@pytest.fixture
def strict_web(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """A second Daphne on the same database, Redis and worker, allowing one generation a
    minute per user: the limit as a designer meets it, without waiting for the default's."""
    extra = {k: stack.env[k] for k in ("DATABASE_URL", "REDIS_URL")}
    web = new_stack(
        tmp_path_factory.mktemp("strict-web"), {**extra, "MACARON_STUDIO_RATE_PER_MINUTE": "1"}
    )
    try:
        web.start_daphne(free_port())
        yield web
    finally:
        web.stop()


def test_the_per_user_limit_gives_its_message(page: Page, strict_web: Stack) -> None:
    signed_in(page, strict_web, "lin")
    page.get_by_role("button", name="New project").click()
    expect(page.locator("#connection")).to_have_text("Connected")
    prompt(page, "Say hello", expert="chat")
    wait_done(page, 120)
    prompt(page, "Say hello again", expert="chat")
    expect(page.get_by_role("alert")).to_contain_text(
        "You have reached your limit of 1 generation a minute; try again in"
    )
    shot(page, "12-limited")
    # The refusal lost nothing: the prompt is still there to send later.
    expect(page.get_by_label("Describe the interface")).to_have_value("Say hello again")


def test_a_project_deleted_in_another_tab_says_so(page: Page, stack: Stack) -> None:
    signed_in(page, stack, "ada")
    project = two_versions(stack, "ada", "Delete me")
    preview = open_project(page, stack, project)
    other = page.context.new_page()
    other.goto(f"{stack.url}/p/{project}/delete")
    other.get_by_role("button", name=re.compile("^Delete")).click()
    expect(other.get_by_role("heading", name="Projects", exact=True)).to_be_visible()
    other.close()
    select_in_preview(page, preview, preview.get_by_role("button", name="Create account"))
    label = page.get_by_role("textbox", name="Label", exact=True)
    label.fill("Join now")
    label.press("Enter")
    expect(page.get_by_role("alert").first).to_contain_text("This project no longer exists")
    shot(page, "13-deleted-elsewhere")
