"""UI4A-Bench's checkers on known specs in real Chromium, with no engine: requirements on the
docs examples hold, interaction checks generated from them pass, and broken specs fail."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

import ui4a
from bench.ui4a_bench import interactions
from bench.ui4a_bench.judge import judge
from bench.ui4a_bench.requirements import parse
from bench.ui4a_bench.scripts import ScriptResult, parse_script, run_script
from bench.ui4a_bench.view import ViewHost
from ui4a.registry import COMPONENTS_DIR

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = pytest.mark.browser


def example(name: str, variant: str = "example.json") -> dict[str, Any]:
    spec = json.loads((COMPONENTS_DIR / name / variant).read_text())
    repaired = ui4a.repair(spec)
    assert repaired.spec is not None and repaired.problems == []
    return repaired.spec


@pytest.fixture
def host(browser: Browser) -> Iterator[ViewHost]:
    viewer = ViewHost(browser)
    yield viewer
    viewer.close()


def outcomes(host: ViewHost, spec: dict[str, Any], *lines: str) -> dict[str, bool]:
    verdict = judge(host, spec, [parse(line) for line in lines])
    assert verdict.clean, verdict.errors
    return {o.requirement: o.passed for o in verdict.requirements}


def test_requirements_hold_on_the_docs_examples(host: ViewHost) -> None:
    form = outcomes(
        host,
        example("form"),
        "textbox /e-?mail/",
        "textbox /password/",
        "spinbutton /age/",
        "button /create account/",
        "textbox >=2",
        "textbox =2",
    )
    assert all(form.values()), form
    table = outcomes(host, example("table"), "table cols>=4", "combobox /status/", "searchbox")
    assert all(table.values()), table
    charts = outcomes(host, example("chart"), "chart /revenue/", "chart >=2", "text /share/")
    assert all(charts.values()), charts


def test_a_requirement_fails_when_the_view_lacks_it(host: ViewHost) -> None:
    spec = example("form")
    assert outcomes(host, spec, "button /sign up/", "textbox >=4", "table", "chart") == {
        "button /sign up/": False,
        "textbox >=4": False,
        "table": False,
        "chart": False,
    }
    # A chart's visually hidden data table is for screen readers, not a table on the screen.
    assert outcomes(host, example("chart"), "table") == {"table": False}


def test_a_spec_missing_its_required_button_fails_that_requirement(host: ViewHost) -> None:
    spec = example("button")
    wanted = "button /show details/"
    assert outcomes(host, spec, wanted) == {wanted: True}
    spec["root"]["c"] = [n for n in spec["root"]["c"] if n["t"] != "button"]
    assert outcomes(host, spec, wanted) == {wanted: False}


def test_a_list_item_an_alert_and_a_status_are_named_by_the_text_they_show(
    host: ViewHost,
) -> None:
    """ARIA names these by their author alone, so a role locator's name never matches them."""
    todos = outcomes(host, example("list"), "listitem /ship the renderer/", "listitem /milk/")
    assert todos == {"listitem /ship the renderer/": True, "listitem /milk/": False}
    warning = outcomes(host, example("alert"), "status /ends in 3 days/", "alert|status /renewed/")
    assert warning == {"status /ends in 3 days/": True, "alert|status /renewed/": False}


def test_a_prompt_written_script_adds_an_item_and_sees_it_in_the_list(host: ViewHost) -> None:
    steps = parse_script(
        [
            'fill textbox /new task/ "Buy oat milk"',
            "click button /add task/",
            "see listitem /oat milk/",
            "see listitem =3",
        ]
    )
    assert run_script(host, example("list"), steps) == ScriptResult(True, 4, "all 4 steps")
    missing = parse_script(['fill textbox /new task/ "Buy oat milk"', "see listitem /oat milk/"])
    result = run_script(host, example("list"), missing)  # never added: Add task not pressed
    assert not result.passed and result.steps_done == 1, result


def test_it_generates_interaction_checks_from_the_spec() -> None:
    assert [(c.kind, c.name) for c in interactions.checks_for(example("form"))] == [
        ("form submit", "form 'Create account' submits its fields"),
        ("form validation", "form 'Create account' refuses bad input"),
    ]
    listed = interactions.checks_for(example("list"))
    assert [c.kind for c in listed] == ["form submit", "form validation", "button"]
    remove = listed[2]
    assert remove.name == "button 'Remove'" and remove.selector.endswith("-i']")  # per item
    assert interactions.checks_for(example("text")) == []


@pytest.mark.parametrize("component", ["form", "list", "dialog", "row", "tabs", "textarea"])
def test_interaction_checks_pass_on_the_docs_examples(host: ViewHost, component: str) -> None:
    spec = example(component)
    checks = interactions.checks_for(spec)
    assert checks
    results = [interactions.run_check(host, spec, check) for check in checks]
    assert [r for r in results if not r.passed] == []


def test_it_reaches_a_button_inside_a_dialog_by_opening_it(host: ViewHost) -> None:
    spec = example("dialog")
    check = next(c for c in interactions.checks_for(spec) if c.name == "button 'Delete'")
    _, target, steps = interactions.reveal(host.open(spec), check.selector)
    assert target is not None and steps == ["'Delete project'"]


def test_it_reaches_a_wizards_last_step_by_pressing_next_twice(host: ViewHost) -> None:
    spec = example("progress")
    spec["root"]["c"] = [
        {"t": "progress", "label": "Progress", "bind": "step", "max": 3},
        *(
            {
                "t": "row",
                "if": f"step={i}",
                "c": [
                    {
                        "t": "button",
                        "label": "Back",
                        "on": {"do": "set", "path": "step", "value": i - 1},
                    },
                    {
                        "t": "button",
                        "label": "Next",
                        "on": {"do": "set", "path": "step", "value": i + 1},
                    },
                ],
            }
            for i in (1, 2, 3)
        ),
    ]
    spec["state"] = {"step": 1}
    fixed = ui4a.repair(spec).spec
    assert fixed is not None
    last_back = interactions.checks_for(fixed)[4]
    assert last_back.name == "button 'Back'"
    _, target, steps = interactions.reveal(host.open(fixed), last_back.selector)
    assert target is not None and steps == ["'Next'", "'Next'"]
    results = [interactions.run_check(host, fixed, c) for c in interactions.checks_for(fixed)]
    assert all(r.passed for r in results), results


def test_a_form_submit_carries_the_values_typed_into_its_fields(host: ViewHost) -> None:
    spec = example("form")
    check = interactions.checks_for(spec)[0]
    result = interactions.run_check(host, spec, check)
    # Email and age: the password never leaves the view (static/ui4a/runtime.js).
    assert result.passed and result.detail == "submitted 2 bound field(s)", result


def test_a_button_whose_action_does_nothing_fails_the_effectiveness_check(
    host: ViewHost,
) -> None:
    spec = example("button")
    inert = copy.deepcopy(spec)
    del inert["root"]["c"][0]["on"]
    same = copy.deepcopy(spec)  # sets what is already so
    same["root"]["c"][0]["on"] = {"do": "set", "path": "open", "value": False}
    for broken in (inert, same):
        (check,) = interactions.checks_for(broken)
        result = interactions.run_check(host, broken, check)
        assert not result.passed
        assert result.detail.startswith("clicking it changed nothing"), result
    (check,) = interactions.checks_for(spec)
    assert interactions.run_check(host, spec, check).passed


def test_a_form_without_validation_messages_fails_the_validation_check(host: ViewHost) -> None:
    spec = example("form")
    check = next(c for c in interactions.checks_for(spec) if c.kind == "form validation")
    assert interactions.run_check(host, spec, check).passed
    # Hide the email field: the password rule is then the one broken; a field whose rules
    # are gone leaves nothing to refuse, and the check says so.
    relaxed = copy.deepcopy(spec)
    for field in relaxed["root"]["c"][0]["c"]:
        for rule in ("req", "min", "max"):
            field.pop(rule, None)
        field["kind"] = "text"
    assert [c.kind for c in interactions.checks_for(relaxed)] == ["form submit"]


def test_an_unreachable_button_fails_with_what_was_tried(host: ViewHost) -> None:
    spec = example("button")
    spec["root"]["c"][0]["if"] = "never"
    spec["state"]["never"] = False
    (check,) = interactions.checks_for(spec)
    result = interactions.run_check(host, spec, check)
    assert not result.passed and result.detail.startswith("not reachable")
