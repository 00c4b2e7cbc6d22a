"""A head shows the names and quoted phrases the request gives (inference/serving/named_texts.py,
spelled by list_completion.py): which phrases are read, which are left to other rules or to an
action, and where the text is drawn, on a scripted vocabulary."""

from __future__ import annotations

import json

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from inference.serving.list_completion import ListState
from inference.serving.named_texts import MAX_TEXTS, SEPARATOR, named_texts
from inference.serving.named_values import MAX_VALUES
from tests.inference.scripted_head import ScriptedHead
from ui4a.catalog import TEXT_MAX
from ui4a.validate import validate

ASKED = "Profile page of a freelance illustrator named Mira Okafor, with a short bio"
PAGE = '{"title":"Profile","root":{"t":"page","c":['
CARD = '{"title":"Profile","root":{"t":"page","c":[{"t":"card","c":['
BIO = '{"t":"text","text":"Illustrator in Lisbon."}'
NAMED = '{"t":"heading","text":"MIRA OKAFOR"}'
TEXT = ',{"t":"text","text":"'
VOCAB = [PAGE, CARD, BIO, NAMED, "]", "]}", ",", TEXT, "Mira", " Okafor", '"}', "x"]

HEAD = ScriptedHead(VOCAB, openings=2)
step, kept = HEAD.step, HEAD.kept


def after(written: list[str], logits: torch.Tensor, state: ListState, message: str = ASKED) -> str:
    return HEAD.after(written, logits, state, message)


def test_names_and_quoted_phrases_are_read() -> None:
    assert named_texts(ASKED) == ["Mira Okafor"]
    assert named_texts('Course evaluation for "Intro to Statistics": a difficulty slider') == [
        "Intro to Statistics"
    ]
    assert named_texts("Month view calendar for November 2026 with a grid of days") == [
        "November 2026"
    ]


def test_what_other_rules_draw_or_an_action_shows_is_left_alone() -> None:
    # A phrase an action shows, a component's name, a named button, a list's items drawn as
    # cards, and a capitalised word that begins a sentence.
    assert named_texts('the card shows "la manzana", a Reveal button shows "the apple"') == [
        "la manzana"
    ]
    assert named_texts('Top contributors, with a "You" badge') == []
    assert named_texts('A newsletter form. Button says "Count Me In"') == []
    assert named_texts("Compare three e-bikes (Volt City, Trail Max, Fold Go) in a table") == []
    assert named_texts("Pricing tiers. Mark Creator as most popular.") == []


def test_the_page_ends_with_the_phrases_it_left_out() -> None:
    state = ListState()
    logits = step("]}")
    after([PAGE, BIO], logits, state)
    assert kept(logits) == {",", TEXT}
    assert state.going_on == (PAGE + BIO, TEXT + 'Mira Okafor"}', 2)
    after([PAGE, BIO, TEXT], logits := step("x"), state)
    assert kept(logits) == {"Mira"}
    assert after([PAGE, BIO, TEXT, "Mira"], step("x"), state) == " Okafor"


def test_a_phrase_shown_in_any_case_or_a_card_closes_as_the_model_meant() -> None:
    assert after([PAGE, NAMED], step("]}"), ListState()) == "]}"
    assert after([CARD, BIO], step("]}"), ListState()) == "]}"


def test_the_phrases_left_out_are_one_valid_text_node() -> None:
    message = 'Song "Blue Hour" by The Lanterns, from Fernwood Design'
    texts = named_texts(message)
    assert texts == ["Blue Hour", "The Lanterns", "Fernwood Design"]
    state = ListState()
    after([PAGE, BIO], step("]}"), state, message)
    assert state.going_on is not None
    node = json.loads(state.going_on[1][1:])
    assert node == {"t": "text", "text": SEPARATOR.join(texts)}
    assert validate({"root": {"t": "page", "c": [node]}}) == []


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from('Ab "., 19?'), max_size=3_000))
def test_any_message_reads_a_bounded_text(message: str) -> None:
    texts = named_texts(message)
    assert len(texts) <= MAX_TEXTS + MAX_VALUES
    assert len(SEPARATOR.join(texts)) <= TEXT_MAX


def test_a_text_with_no_room_after_it_for_a_child_and_its_dialog_closes_the_page() -> None:
    # Six children leave room for two: the text takes one, and a row the model wrote after it
    # could open a dialog there was no room for.
    for count, closes in ((5, False), (6, True)):
        written = [PAGE, BIO, *[",", BIO] * (count - 1)]
        state = ListState()
        after(written, step("]}"), state)
        assert state.going_on is not None
        assert state.going_on[1] == TEXT + 'Mira Okafor"}' + ("]" if closes else "")


def test_a_named_button_with_room_for_it_alone_comes_before_the_text() -> None:
    # Six children leave room for two: a named button and the dialog it may open, or the text.
    message = ASKED + ", and a Hire me button"
    for count, drawn in ((5, TEXT + 'Mira Okafor"}'), (6, ',{"t":"button","label":"Hire me"')):
        state = ListState()
        after([PAGE, BIO, *[",", BIO] * (count - 1)], step("]}"), state, message)
        assert state.going_on is not None
        assert state.going_on[1] == drawn
