"""The buttons a request puts on each item of a list (inference/serving/item_buttons.py), and
the cards that carry them (list_cards.grid): which list each belongs to, none that takes its
item away, and a valid view where each card's button marks that card alone."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inference.serving.item_buttons import card_children, item_buttons, pressed, state_key
from inference.serving.list_cards import card_lists, grid
from inference.serving.list_completion import ListState
from tests.inference.scripted_head import ScriptedHead
from ui4a.validate import validate

ON_EACH = {
    "Shop grid: Monstera $38, Snake plant $24, Pothos $15 — each with an image and an Add to"
    " basket button": ["Add to basket"],
    "Yoga classes where each class (Morning flow, Power hour, Yin & restore) has a Book spot"
    " button": ["Book spot"],
    # The next sentence, where it begins "Each with", is still the list's.
    'Coworking options: Day pass, Hot desk, Private office. Each with a "Book a tour" button.': [
        "Book a tour"
    ],
}

NOT_ON_EACH = [
    # A board's cards are not its columns.
    "A board by status: Draft, In review, Scheduled. Each card has a Move right button.",
    # A button on each row of a table is not one on each of its columns.
    "order history with order number, date, items, status; a Reorder button per row",
    # A card of a fixed grid has nowhere to go.
    "Up next: Blue Hour, Red Sky, Green Door, each with a Remove button",
    # One button for the page is the named-button rule's.
    "Classes: Morning flow, Power hour, Yin; a Book button at the bottom",
]


@pytest.mark.parametrize("message", list(ON_EACH))
def test_a_button_said_for_each_item_goes_on_the_list_it_follows(message: str) -> None:
    assert [buttons for _, buttons, _ in card_lists(message)] == [ON_EACH[message]]


@pytest.mark.parametrize("message", NOT_ON_EACH)
def test_no_button_goes_on_a_list_it_is_not_said_for(message: str) -> None:
    assert all(buttons == [] for _, buttons, _ in card_lists(message))


def test_a_button_is_told_on_each_item_where_per_or_each_follows_it() -> None:
    assert [name for _, name in item_buttons("a Restore button per file")] == ["Restore"]


def test_each_card_sets_a_key_of_its_own_and_badges_itself() -> None:
    items = [("Morning flow", ["morning"], ""), ("Power hour", ["power"], "")]
    drawn = json.loads(grid(items, ["Book spot"]))
    first, second = (card["c"] for card in drawn["c"])
    assert first[0] == {
        "t": "button",
        "label": "Book spot",
        "on": {"do": "set", "path": "book_spot_card_1", "value": True},
    }
    assert first[1]["if"] == "book_spot_card_1" and second[1]["if"] == "book_spot_card_2"
    assert first[1]["text"] == "Booked spot"
    state = {"book_spot_card_1": False, "book_spot_card_2": False}
    assert validate({"root": {"t": "page", "c": [drawn]}, "state": state}) == []


def test_a_list_too_long_for_a_key_on_each_card_gets_no_buttons() -> None:
    items = "Eclair, Scone, Brownie, Muffin, Tart, Bagel, Donut"
    assert card_lists(f"a bakery: {items}, each with an Order button") == [
        (card_lists(f"a bakery: {items}")[0][0], [], "")
    ]


def test_what_a_pressed_button_says_and_the_key_it_sets() -> None:
    assert pressed("Add to basket") == "Added to basket"
    assert pressed("Buy now") == "Bought now"
    assert pressed("Apply") == "Applied"
    assert state_key("Book a tour", 1) == "book_a_tour_card_1"
    assert state_key("Request a very long consultation now", 6) == "request_a_ver_card_6"
    assert state_key("3D print", 2) == "item_3d_print_card_2"


BAKERY = "a bakery: Sourdough $6, Rye loaf $5, Baguette $3, each with an Order button"
PAGE = '{"title":"Bakery","root":{"t":"page","c":[{"t":"grid","cols":3,"c":['
# A card of the model's own that shows an item, and one that shows none.
RYE = '{"t":"card","c":[{"t":"heading","text":"Rye loaf"},{"t":"text","text":"$5"}'
FLOUR = '{"t":"card","c":[{"t":"heading","text":"Flour"}'
ORDERED = ',{"t":"button","label":"Order"}'
HEAD = ScriptedHead([PAGE, RYE, FLOUR, ORDERED, "]}", "]", ","], openings=1)


def test_a_card_of_the_models_that_shows_an_item_gets_its_button() -> None:
    state = ListState()
    HEAD.after([PAGE, RYE], HEAD.step("]}"), state, BAKERY)
    assert state.going_on is not None
    assert state.going_on[1] == "," + card_children(2, ["Order"])  # the list's second item


def test_a_card_that_shows_no_item_or_has_the_button_closes_as_the_model_meant() -> None:
    assert HEAD.after([PAGE, FLOUR], HEAD.step("]}"), ListState(), BAKERY) == "]}"
    assert HEAD.after([PAGE, RYE, ORDERED], HEAD.step("]}"), ListState(), BAKERY) == "]}"


WORDS = ["each", " with", " a", " X", " button", ",", ".", "(", ")", " per", " Y"]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=1_500).map("".join))
def test_any_message_reads_a_bounded_set_of_item_buttons(message: str) -> None:
    for at, name in item_buttons(message):
        assert 0 <= at < 2_000 and name
    for _, buttons, _ in card_lists(message):
        assert len(buttons) <= 1 and all(len(state_key(b, 6)) <= 20 for b in buttons)
