"""The Python panel as a designer uses it: a Django live server, real kernels under real
bubblewrap, and Debian's Chromium. Cells typed by hand run with Shift+Enter; an expert's cells
(run through the service, as the API's tool loop runs them) appear while the panel is open;
reset and end work; output that looks like markup stays text. The designer asks the agent from
the panel: the tool loop runs in the project's session on a scripted fake engine (a fake,
named so), its cell shows while it works, then its answer, as text."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from inference.tool_calls import ToolCall, render_call
from studio.models import Project
from studio.services.repl import repl_execute, repl_owner_for_user, repl_sessions
from studio.services.versions import version_add
from tests.axe import axe_violations
from tests.live_session import sign_in
from tests.studio.conftest import FakeWorker
from tests.studio.repl_fixtures import repl_root

__all__ = ["repl_root"]
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIGNUP: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[1] / "ui4a" / "signup.json").read_text()
)
HELPER = '''def tax(amount, rate=0.2):
    """The tax on an amount, rounded to cents."""
    return round(amount * rate, 2)

print("tax(41.5) =", tax(41.5))
tax(100)'''
PRIMES = """primes = [n for n in range(2, 600) if all(n % d for d in range(2, n))][:100]
print(len(primes), "primes, the last", primes[-1])
sum(primes) / len(primes)"""
PRIMES_ANSWER = (
    "The mean of the first 100 primes is 241.33: they add up to 24133, and the 100th is 541."
)


@pytest.fixture(autouse=True)
def repl_settings(settings: Any, repl_root: Path) -> None:
    settings.MACARON_REPL_HOME = repl_root
    settings.MACARON_REPL_CELL_SECONDS = 5.0


@pytest.fixture
def project(live_server: Any) -> Project:
    owner = get_user_model().objects.create_user("ada", password="not-used-here-42")
    project = Project.objects.create(name="Sign-up flow", owner=owner)
    version_add(
        project=project,
        spec=SIGNUP,
        kind="generated",
        label="a signup form with name, email, a password and a terms checkbox",
        author=owner,
    )
    return project


def expert_runs(project: Project, code: str) -> None:
    """A cell in the project's session run as the tool loop runs one: not from the page."""
    assert project.owner is not None
    owner = repl_owner_for_user(project.owner)
    state = repl_sessions().tagged(owner, f"project:{project.id}", start=False)
    assert state is not None
    repl_execute(owner=owner, session_id=state.id, code=code, by="expert")


def test_it_runs_cells_and_shows_the_experts_as_they_happen(
    page: Page, live_server: Any, project: Project, errors: list[str]
) -> None:
    assert project.owner is not None
    sign_in(page, live_server, project.owner)
    page.set_viewport_size({"width": 1440, "height": 1000})
    page.goto(f"{live_server.url}/p/{project.id}/")
    page.get_by_role("button", name="Python").click()
    panel = page.get_by_role("region", name="Python")
    expect(panel.get_by_role("status").first).to_contain_text("0 cells")
    expect(panel.get_by_role("heading", name="Global tools")).to_be_visible()
    expect(panel.get_by_text("None yet.")).to_be_visible()

    code = panel.get_by_label("Python code")
    code.fill("x = 41")
    code.press("Shift+Enter")
    expect(panel.get_by_role("listitem", name="Cell 1")).to_contain_text("You")
    expect(code).to_have_value("")
    code.fill("x + 1")
    code.press("Shift+Enter")
    second = panel.get_by_role("listitem", name="Cell 2")
    expect(second).to_contain_text("42")
    expect(second.locator(".repl-result")).to_have_text("Out42")

    expert_runs(project, HELPER)
    helper = panel.get_by_role("listitem", name="Cell 3")
    expect(helper).to_contain_text("Expert", timeout=5000)
    expect(helper).to_contain_text("tax(41.5) = 8.3")
    expect(helper.locator(".repl-result")).to_have_text("Out20.0")

    code.fill("print('<b>bold?</b>')\ntax(x) / 0")
    code.press("Shift+Enter")
    failed = panel.get_by_role("listitem", name="Cell 4")
    expect(failed.get_by_role("group", name="Error")).to_contain_text(
        "ZeroDivisionError: float division by zero"
    )
    expect(failed).to_contain_text("<b>bold?</b>")  # text, not markup
    assert failed.locator("b").count() == 0

    violations = axe_violations(page, iframes=False)
    assert violations == [], [v["id"] for v in violations]
    page.screenshot(path="test-artifacts/repl-panel.png")

    panel.get_by_role("button", name="Reset").click()
    expect(panel.get_by_role("listitem", name="Session reset")).to_be_visible()
    expect(
        panel.get_by_text("A fresh kernel: earlier variables and files are gone.")
    ).to_be_visible()
    code.fill("x")
    code.press("Shift+Enter")
    expect(panel.get_by_role("listitem", name="Cell 6")).to_contain_text("NameError")

    page.once("dialog", lambda dialog: dialog.accept())
    panel.get_by_role("button", name="End session").click()
    expect(panel.get_by_text("Session ended.")).to_be_visible()
    expect(panel.get_by_role("listitem", name="Cell 1")).to_have_count(0)
    panel.get_by_role("button", name="Hide the Python panel").click()
    expect(panel).to_be_hidden()
    assert [e for e in errors if "Content Security Policy" in e or "Refused" in e] == []


def test_a_host_without_the_sandbox_says_so(
    page: Page, live_server: Any, project: Project, monkeypatch: pytest.MonkeyPatch
) -> None:
    from studio.repl.sandbox import SandboxUnavailable

    def refuse(*args: object, **kwargs: object) -> int:
        raise SandboxUnavailable("This host cannot make user namespaces; sessions are refused.")

    monkeypatch.setattr("studio.repl.sessions.sandbox_start", refuse)
    assert project.owner is not None
    sign_in(page, live_server, project.owner)
    page.goto(f"{live_server.url}/p/{project.id}/")
    page.get_by_role("button", name="Python").click()
    panel = page.get_by_role("region", name="Python")
    expect(panel.get_by_role("alert")).to_contain_text("Python is not available on this server.")
    expect(panel.get_by_role("alert")).to_contain_text("cannot make user namespaces")
    expect(panel.get_by_label("Python code")).to_be_disabled()


def test_the_designer_asks_the_agent_and_sees_its_cells_and_answer(
    page: Page,
    live_server: Any,
    project: Project,
    fake_worker: FakeWorker,
    settings: Any,
    errors: list[str],
) -> None:
    settings.MACARON_STUDIO_RATE_PER_MINUTE = 2
    fake_worker.script = [
        render_call(ToolCall("python", {"code": PRIMES})),
        PRIMES_ANSWER,
        'Like this: <img src=x onerror="document.title=1"> <b>42</b>',
    ]
    fake_worker.delay = 0.15  # 5 characters a batch: the answer streams for about 3 s
    assert project.owner is not None
    sign_in(page, live_server, project.owner)
    page.set_viewport_size({"width": 1440, "height": 1000})
    page.goto(f"{live_server.url}/p/{project.id}/")
    page.get_by_role("button", name="Python").click()
    panel = page.get_by_role("region", name="Python")
    expect(panel.get_by_role("status").first).to_contain_text("0 cells")

    question = panel.get_by_label("Ask the expert")
    question.fill("What is the mean of the first 100 primes?")
    panel.get_by_role("button", name="Ask").click()
    # The expert's cell shows while it still works on its answer: the log is live.
    working = panel.get_by_text("Agent is working")
    expect(working).to_be_visible()
    cell = panel.get_by_role("listitem", name="Cell 1")
    expect(cell).to_contain_text("Expert", timeout=40000)
    expect(cell).to_contain_text("100 primes, the last 541")
    expect(cell.locator(".repl-result")).to_have_text("Out241.33")
    expect(working).to_be_visible()
    expect(panel.get_by_role("button", name="Run")).to_be_disabled()

    answer = panel.get_by_role("region", name="Expert's answer")
    expect(answer).to_contain_text(PRIMES_ANSWER, timeout=15000)
    expect(answer).to_contain_text("1 cell run")
    expect(working).to_be_hidden()
    expect(question).to_have_value("")
    violations = axe_violations(page, iframes=False)
    assert violations == [], [v["id"] for v in violations]
    page.screenshot(path="test-artifacts/repl-panel-ask.png")

    # Markup in an answer is text.
    question.fill("Show me 6 times 7 in bold.")
    panel.get_by_role("button", name="Ask").click()
    expect(answer).to_contain_text("<b>42</b>", timeout=15000)
    assert answer.locator("b, img").count() == 0
    assert page.title() != "1"

    # The studio's rate limit, counted once a question: the third is refused, and says so.
    question.fill("And the median?")
    panel.get_by_role("button", name="Ask").click()
    expect(panel.get_by_role("alert")).to_contain_text("limit of 2 generations a minute")
    expect(question).to_have_value("And the median?")
    assert [e for e in errors if "Content Security Policy" in e or "Refused" in e] == []
