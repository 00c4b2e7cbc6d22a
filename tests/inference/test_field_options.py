"""A head's select spells the options the request gives it (inference/serving/field_options.py,
spelled by list_completion.py): the options read after a select's name, and, on a scripted
vocabulary, where a head's options go on to them."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from inference.serving.field_options import MAX_OPTIONS, named_options, opening
from inference.serving.list_completion import ListState
from inference.serving.named_fields import named_fields
from tests.inference.scripted_head import ScriptedHead

ASKED = "a signup with a dropdown asking how they heard about us with Instagram, A friend, Walk-in"
OPTIONS = [("how they heard about us", ["Instagram", "A friend", "Walk-in"])]
SELECT = '{"title":"Signup","root":{"t":"page","c":[{"t":"select","label":"How they heard about us"'
OTHER = '{"title":"Signup","root":{"t":"page","c":[{"t":"select","label":"Country"'
OPTS = ',"bind":"heard","opts":['
VOCAB = [SELECT, OTHER, OPTS, '"Yes', '"All', '","', '"Inst', "agram", '"', "]", "x"]
HEAD = ScriptedHead(VOCAB, openings=2)

READ = {
    ASKED: OPTIONS,
    "a vet booking: species dropdown (Dog, Cat, Rabbit, Other) and a reason box": [
        ("species", ["Dog", "Cat", "Rabbit", "Other"])
    ],
    # The first mention of "language" lists nothing; the one before its cue does.
    "language and region: language select with English, Deutsch; a Save button": [
        ("language", ["English", "Deutsch"])
    ],
    "choose your room (Living room, Bedroom, Office), then a schedule": [
        ("room", ["Living room", "Bedroom", "Office"])
    ],
}
NONE_READ = [
    "a team page with a timezone dropdown",
    "a wine shop with sort by price, a search and six cards",
    "a topic select with one long option that keeps on going",
]


@pytest.mark.parametrize("message", list(READ))
def test_a_selects_options_are_read_after_its_name(message: str) -> None:
    assert named_options(message, named_fields(message)) == READ[message]


@pytest.mark.parametrize("message", NONE_READ)
def test_a_select_with_no_short_options_after_it_has_none(message: str) -> None:
    assert named_options(message, named_fields(message)) == []


def test_a_named_selects_options_are_spelled_after_the_models_all() -> None:
    text = SELECT[SELECT.index('{"t":"select"') :] + OPTS
    spelled = '"Instagram","A friend","Walk-in"'
    assert opening(OPTIONS, text, '"Yes') == spelled
    assert opening(OPTIONS, text, '"All') == '"All",' + spelled
    assert opening(OPTIONS, text + '"All', '","') == '",' + spelled
    # A lone quote, or "A", does not tell an "All" from the first option: the row is let be.
    assert opening(OPTIONS, text, '"') is None
    assert opening(OPTIONS, text + '"', "A") is None
    assert opening(OPTIONS, text + '"', "All") == 'All",' + spelled
    assert opening(OPTIONS, text + '"', "Inst") == spelled[1:]
    assert opening(OPTIONS, text.replace("How they heard", "How they-heard"), '"Yes') == spelled


def test_options_the_model_began_or_finished_or_another_select_are_left_alone() -> None:
    text = SELECT[SELECT.index('{"t":"select"') :] + OPTS
    assert opening(OPTIONS, text + '"Yes"', ",") is None
    assert opening(OPTIONS, text + '"Instagram","A friend","Walk-in"', "]") is None
    assert opening(OPTIONS, OTHER + OPTS, '"Yes') is None


def test_a_head_at_a_named_selects_options_keeps_the_tokens_that_spell_them() -> None:
    state = ListState()
    logits = HEAD.step('"Yes')
    assert HEAD.after([SELECT, OPTS], logits, state, ASKED) == '"Inst'
    assert HEAD.kept(logits) == {'"Inst', '"'}
    logits = HEAD.step('"Yes')
    assert HEAD.after([OTHER, OPTS], logits, ListState(), ASKED) == '"Yes'


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abc ,()/with dropdown select Dog", max_size=4_000))
def test_any_message_reads_a_bounded_set_of_short_options(message: str) -> None:
    for _, options in named_options(message, named_fields(message)):
        assert 2 <= len(options) <= MAX_OPTIONS
