"""A head draws a list the request names and shows none of as a grid of cards
(inference/serving/list_cards.py, spelled by list_completion.py): which lists are read, the grid
they are drawn as, and where it is drawn, on a scripted vocabulary."""

from __future__ import annotations

import json

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from inference.serving.list_cards import ANSWER, ANSWER_KEY, card_lists, drawn, grid
from inference.serving.list_completion import ListState
from tests.inference.scripted_head import ScriptedHead
from ui4a.catalog import MAX_CHILDREN, SHORT_MAX
from ui4a.validate import validate

ASKED = "Pricing for a podcast host: Hobby free, Creator $12/mo, Network $49/mo."
PAGE = '{"title":"Pricing","root":{"t":"page","c":['
CARD = '{"title":"Pricing","root":{"t":"page","c":[{"t":"card","c":['
TIERS = (
    '{"t":"grid","cols":2,"c":[{"t":"card","title":"Hobby, free"},{"t":"card","title":"Creator"'
    ',"c":[{"t":"text","text":"$12 a month"}]}]}'
)
# An item shows where each of its telling words does: "Hobby" and "$12" are no tier.
STATS = '{"t":"grid","cols":2,"c":[{"t":"stat","label":"Hobby","value":"$12"}]}'
GRID = ',{"t":"grid","cols":3,"c":[{"t":"card","title":"'
VOCAB = [
    PAGE, CARD,
    STATS, TIERS, "]", "]}", ",", GRID, ',{"t":"grid"', "Hobby", " free", '"},', "x",
]  # fmt: skip

HEAD = ScriptedHead(VOCAB, openings=2)
step, kept = HEAD.step, HEAD.kept


def after(written: list[str], logits: torch.Tensor, state: ListState, message: str = ASKED) -> str:
    return HEAD.after(written, logits, state, message)


def said(message: str) -> list[list[str]]:
    return [[item for item, _, _ in listed] for listed, _, _ in card_lists(message)]


def test_a_list_of_names_and_prices_is_read_as_said() -> None:
    assert said(ASKED) == [["Hobby free", "Creator $12", "Network $49"]]
    assert said("group chat, member list on the side (Ava, Kofi, Lena, Mateo)") == [
        ["Ava", "Kofi", "Lena", "Mateo"]
    ]


def test_lists_of_components_numbers_or_descriptions_are_not_cards() -> None:
    # Buttons are the button rule's; numbers are values of something else; a long item is a
    # description, and the two short ones left make no list.
    assert said("buttons previous, play/pause, next, shuffle and repeat") == []
    assert said("Compare VPNs on devices (1, 5, 10)") == []
    assert said("a form: which sessions did you attend, what should we improve, email") == []
    message = "type a book's title, press Add book, and it shows up in the list underneath"
    assert said(message) == []


def test_the_grid_is_a_valid_view_of_titled_cards_three_or_four_to_a_row() -> None:
    for count, cols in ((3, 3), (4, 4), (5, 3), (6, 3), (8, 4)):
        items = [(f"item {i}", [f"item{i}"], "") for i in range(count)]
        drawn = json.loads(grid(items, []))
        assert drawn["cols"] == cols
        assert [card["title"] for card in drawn["c"]] == [f"Item {i}" for i in range(count)]
        assert validate({"root": {"t": "page", "c": [drawn]}}) == []


def test_a_question_s_choices_are_one_group_of_radios() -> None:
    message = 'Poll: "Where should we have the team offsite?" with Lisbon, Kraków, Edinburgh'
    ((items, buttons, question),) = card_lists(message)
    assert (buttons, question) == ([], "Where should we have the team offsite?")
    group = json.loads(drawn(items, buttons, question))
    assert group == {
        "t": "radio",
        "label": "Where should we have the team offsite?",
        "bind": ANSWER_KEY,
        "opts": ["Lisbon", "Kraków", "Edinburgh"],
    }
    assert validate({"root": {"t": "page", "c": [group]}, "state": {ANSWER_KEY: ""}}) == []
    # A quiz that quotes no question still asks one; a list that names a drop-down, or a shop's
    # list, is no question's.
    assert [q for *_, q in card_lists("trivia: Mars, Jupiter, Venus, Saturn")] == [ANSWER]
    assert [q for *_, q in card_lists("a survey with a city dropdown (Oslo, Rome, Lima)")] == [""]
    assert [q for *_, q in card_lists("Shop grid: Monstera $38, Pothos $15, Fern $9")] == [""]


def test_the_page_ends_with_the_list_it_showed_none_of() -> None:
    state = ListState()
    logits = step("]}")
    after([PAGE, STATS], logits, state)
    assert kept(logits) == {",", GRID, ',{"t":"grid"'}
    tiers = 'Hobby free"},{"t":"card","title":"Creator $12"},{"t":"card","title":"Network $49"}]}'
    assert state.going_on == (PAGE + STATS, GRID + tiers, 2)
    assert state.went_on_at is None  # the page is the model's to close after the grid
    after([PAGE, STATS, GRID], logits := step("x"), state)
    assert kept(logits) == {"Hobby"}
    assert after([PAGE, STATS, GRID, "Hobby"], step("x"), state) == " free"


def test_a_list_that_shows_two_items_or_a_card_closes_as_the_model_meant() -> None:
    assert after([PAGE, TIERS], step("]}"), ListState()) == "]}"
    assert after([CARD, STATS], step("]}"), ListState()) == "]}"
    # An empty page is not the model's last word: nothing is added before its first child.
    assert after([PAGE], step("]}"), ListState()) == "]}"


def test_a_full_page_takes_no_grid() -> None:
    written = [PAGE, STATS, *[",", STATS] * (MAX_CHILDREN - 1)]
    assert after(written, step("]}"), ListState()) == "]}"


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab ,/()&:.1$"), max_size=3_000))
def test_any_message_reads_a_bounded_set_of_cards(message: str) -> None:
    for listed, buttons, question in card_lists(message):
        assert 3 <= len(listed) <= MAX_CHILDREN
        assert len(question) <= SHORT_MAX
        assert len(buttons) <= 2
        assert all(len(item.split()) <= 5 for item, _, _ in listed)
