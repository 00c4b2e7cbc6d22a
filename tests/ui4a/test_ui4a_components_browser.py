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
