"""Every component's docs example, used in a real browser: one interaction per component.

A meta-test fails when a registered component has no interaction here.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from ui4a import render_document
from ui4a.registry import components, example_path


def _page(page: Page) -> None:
    expect(page.get_by_role("heading", name="Welcome")).to_be_visible()
    expect(page.get_by_text("A page stacks its children.")).to_be_visible()


def _stack(page: Page) -> None:
    first, second = page.get_by_text("First"), page.get_by_text("Second")
    first_box, second_box = first.bounding_box(), second.bounding_box()
    assert first_box is not None and second_box is not None
    assert first_box["y"] < second_box["y"]


def _row(page: Page) -> None:
    back, forward = page.get_by_role("button", name="Back"), page.get_by_role("button", name="Next")
    back_box, next_box = back.bounding_box(), forward.bounding_box()
    assert back_box is not None and next_box is not None
    assert back_box["x"] < next_box["x"] and back_box["y"] == next_box["y"]
    forward.click()
    expect(page.get_by_text("Step 2")).to_be_visible()


def _card(page: Page) -> None:
    card = page.get_by_role("region", name="Profile")
    expect(card.get_by_text("Cards group related content.")).to_be_visible()


def _heading(page: Page) -> None:
    expect(page.get_by_role("heading", level=1, name="Quarterly report")).to_be_visible()
    expect(page.get_by_role("heading", level=2, name="Revenue")).to_be_visible()
    expect(page.get_by_role("heading", level=3, name="By region")).to_be_visible()


def _text(page: Page) -> None:
    expect(page.get_by_text("Hello, Ada!")).to_be_visible()
    page.get_by_label("Your name").fill("Grace")
    expect(page.get_by_text("Hello, Grace!")).to_be_visible()


def _input(page: Page) -> None:
    field = page.get_by_label("Email")
    expect(field).to_have_attribute("type", "email")
    expect(field).to_have_attribute("placeholder", "you@example.com")
    field.fill("ada@example.com")
    expect(field).to_have_value("ada@example.com")


def _checkbox(page: Page) -> None:
    thanks = page.get_by_text("Thanks, we will keep you posted.")
    expect(thanks).to_be_hidden()
    page.get_by_label("Email me updates").check()
    expect(thanks).to_be_visible()
    page.get_by_text("Email me updates").click()  # the label toggles it too
    expect(thanks).to_be_hidden()


def _button(page: Page) -> None:
    details = page.get_by_text("Here are the details.")
    toggle = page.get_by_role("button", name="Show details")
    expect(details).to_be_hidden()
    toggle.click()
    expect(details).to_be_visible()
    toggle.focus()
    page.keyboard.press("Enter")
    expect(details).to_be_hidden()


def _column(page: Page) -> None:
    main, side = page.get_by_text("Wide column."), page.get_by_text("Narrow column.")
    main_box, side_box = main.bounding_box(), side.bounding_box()
    assert main_box is not None and side_box is not None
    assert main_box["x"] < side_box["x"] and main_box["width"] > side_box["width"]


def _grid(page: Page) -> None:
    boxes = [page.get_by_role("region", name=n).bounding_box() for n in ("Starter", "Team")]
    assert boxes[0] is not None and boxes[1] is not None
    assert boxes[0]["y"] == boxes[1]["y"] and boxes[0]["x"] < boxes[1]["x"]


def _tabs(page: Page) -> None:
    overview = page.get_by_role("tab", name="Overview")
    expect(overview).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("tabpanel")).to_have_text("Everything at a glance.")
    page.get_by_role("tab", name="Settings").click()
    expect(page.get_by_role("tabpanel")).to_have_text("Change how it works.")
    page.keyboard.press("ArrowLeft")  # arrow keys move between tabs
    expect(overview).to_be_focused()
    expect(page.get_by_role("tabpanel")).to_have_text("Everything at a glance.")
    page.get_by_role("button", name="Go to settings").click()  # the "tab" action
    expect(page.get_by_role("tab", name="Settings")).to_have_attribute("aria-selected", "true")


def _accordion(page: Page) -> None:
    answer = page.get_by_text("Yes: model output is data, never code.")
    expect(answer).to_be_hidden()
    page.get_by_text("Is it safe?").click()
    expect(answer).to_be_visible()


def _dialog(page: Page) -> None:
    page.get_by_role("button", name="Delete project").click()
    dialog = page.get_by_role("dialog", name="Delete this project?")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.get_by_role("button", name="Delete project").click()
    dialog.get_by_role("button", name="Delete").click()  # a list of actions: set, then close
    expect(dialog).to_be_hidden()
    expect(page.get_by_text("Project deleted.")).to_be_visible()


def _divider(page: Page) -> None:
    expect(page.get_by_role("separator", name="or")).to_be_visible()


def _markdown(page: Page) -> None:
    expect(page.get_by_role("heading", name="Release notes")).to_be_visible()
    expect(page.locator("strong")).to_have_text("tables")
    expect(page.get_by_role("listitem")).to_have_count(2)
    link = page.get_by_role("link", name="guide")
    expect(link).to_have_attribute("href", "https://example.com/guide")
    link.click()  # the frame never navigates away
    expect(page.get_by_role("heading", name="Release notes")).to_be_visible()


def _badge(page: Page) -> None:
    expect(page.get_by_text("Active")).to_have_class("u4-badge u4-tone-success")


def _image(page: Page) -> None:
    image = page.get_by_role("img", name="Mountains under a yellow sun")
    expect(image).to_be_visible()
    assert image.evaluate("img => img.naturalWidth") > 0


def _icon(page: Page) -> None:
    expect(page.get_by_role("img", name="Done")).to_be_visible()


def _alert(page: Page) -> None:
    expect(page.get_by_role("status")).to_contain_text("Your trial ends in 3 days.")


def _textarea(page: Page) -> None:
    message = page.get_by_label("Message")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_text("This field is required.")).to_be_visible()
    expect(message).to_be_focused()
    message.fill("Too short")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_text("Use at least 10 characters.")).to_be_visible()
    message.fill("Long enough now")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_text("Sent: Long enough now")).to_be_visible()


def _select(page: Page) -> None:
    page.get_by_label("Region").select_option("Asia")
    expect(page.get_by_text("Showing Asia")).to_be_visible()


def _radio(page: Page) -> None:
    expect(page.get_by_role("radio", name="Free")).to_be_checked()
    page.get_by_role("radio", name="Team").check()
    expect(page.get_by_text("You chose Team.")).to_be_visible()


def _switch(page: Page) -> None:
    switch = page.get_by_role("switch", name="Email notifications")
    switch.focus()
    page.keyboard.press("Space")
    expect(switch).to_be_checked()
    expect(page.get_by_text("Notifications are on.")).to_be_visible()


def _slider(page: Page) -> None:
    slider = page.get_by_label("Seats")
    slider.focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_text("Total: 6 seats")).to_be_visible()


def _form(page: Page) -> None:
    submit = page.get_by_role("button", name="Create account")
    submit.click()
    assert page.get_by_text("This field is required.").count() == 2
    page.get_by_label("Email").fill("not-an-email")
    page.get_by_label("Password").fill("short")
    page.get_by_label("Age").fill("12")
    submit.click()
    expect(page.get_by_text("Enter a valid email address.")).to_be_visible()
    expect(page.get_by_text("Use at least 8 characters.")).to_be_visible()
    expect(page.get_by_text("Must be at least 18.")).to_be_visible()
    expect(page.get_by_label("Email")).to_have_attribute("aria-invalid", "true")
    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_label("Password").fill("long enough")
    page.get_by_label("Age").fill("36")
    submit.click()
    expect(page.get_by_text("Welcome aboard, ada@example.com!")).to_be_visible()


def _table(page: Page) -> None:
    table = page.get_by_role("table", name="Orders")
    rows = table.get_by_role("row")
    expect(rows).to_have_count(5)  # a header row and one page of four
    expect(page.get_by_text("1\u20134 of 6")).to_be_visible()
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_text("5\u20136 of 6")).to_be_visible()
    page.get_by_role("button", name="Total").click()
    expect(page.get_by_role("columnheader", name="Total")).to_have_attribute(
        "aria-sort", "ascending"
    )
    expect(rows.nth(1)).to_contain_text("Alan Turing")
    page.get_by_role("button", name="Total").click()
    expect(rows.nth(1)).to_contain_text("Katherine Johnson")
    page.get_by_label("Status").select_option("Open")
    expect(page.get_by_text("1\u20132 of 2")).to_be_visible()
    page.get_by_label("Search Orders").fill("grace")
    expect(page.get_by_text("1\u20131 of 1")).to_be_visible()
    expect(rows.nth(1)).to_contain_text("Grace Hopper")


def _list(page: Page) -> None:
    items = page.get_by_role("listitem")
    expect(items).to_have_count(2)
    expect(page.get_by_label("Write the spec")).to_be_checked()
    page.get_by_label("Ship the renderer").check()
    page.get_by_label("New task").fill("Celebrate")
    page.get_by_role("button", name="Add task").click()
    expect(items).to_have_count(3)
    expect(page.get_by_label("Celebrate")).not_to_be_checked()
    expect(page.get_by_label("New task")).to_have_value("")  # the second action reset it
    expect(page.get_by_label("Ship the renderer")).to_be_checked()
    items.nth(0).get_by_role("button", name="Remove").click()
    expect(items).to_have_count(2)
    expect(page.get_by_label("Write the spec")).to_have_count(0)


def _stat(page: Page) -> None:
    expect(page.get_by_text("$48.2k")).to_be_visible()
    expect(page.get_by_text("1893")).to_be_visible()
    expect(page.locator(".u4-delta-good")).to_have_count(2)  # +12.5% revenue, -0.4% churn
    expect(page.locator(".u4-delta-bad")).to_contain_text("Down")


def _progress(page: Page) -> None:
    bar = page.get_by_label("Onboarding")
    expect(bar).to_have_attribute("max", "5")
    assert bar.evaluate("p => p.value") == 2
    page.get_by_role("button", name="Complete a step").click()
    assert bar.evaluate("p => p.value") == 3
    expect(page.get_by_text("60%")).to_be_visible()


def _chart(page: Page) -> None:
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


INTERACTIONS: dict[str, Callable[[Page], None]] = {
    "page": _page,
    "stack": _stack,
    "row": _row,
    "card": _card,
    "heading": _heading,
    "text": _text,
    "input": _input,
    "checkbox": _checkbox,
    "button": _button,
    "column": _column,
    "grid": _grid,
    "tabs": _tabs,
    "accordion": _accordion,
    "dialog": _dialog,
    "divider": _divider,
    "markdown": _markdown,
    "badge": _badge,
    "image": _image,
    "icon": _icon,
    "alert": _alert,
    "textarea": _textarea,
    "select": _select,
    "radio": _radio,
    "switch": _switch,
    "slider": _slider,
    "form": _form,
    "table": _table,
    "list": _list,
    "stat": _stat,
    "progress": _progress,
    "chart": _chart,
}


def test_it_has_an_interaction_for_every_component() -> None:
    assert set(INTERACTIONS) == set(components())


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(INTERACTIONS))
def test_it_brings_each_component_example_to_life(name: str, page: Page, errors: list[str]) -> None:
    example = json.loads(example_path(components()[name]).read_text())
    page.set_content(render_document(example))
    INTERACTIONS[name](page)
    assert errors == []
