"""A question's choices are radios, not a drop-down (inference/serving/choice_kind.py): which
requests ask, and, on a scripted vocabulary, which rows keep only the tokens that spell a radio."""

from __future__ import annotations

import functools
from types import SimpleNamespace

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from inference.serving import choice_kind
from inference.serving.step_rows import Row, Strings

QUIZ = 'A quiz question: "What is the capital of Australia?" with Sydney, Canberra, Perth'
PAGE = '{"title":"Quiz","root":{"t":"page","c":['
NODE = '{"t":"'
# A stand-in vocabulary, each id's text as the tokenizer decodes it alone ("" a special token).
VOCAB = [PAGE, NODE, "select", "sel", "s", "stack", "radio", "ra", "r", '"', "elect", ""]


@functools.lru_cache  # one function, as token_strings gives: the caches key on it
def strings() -> Strings:
    return VOCAB.__getitem__


def request(written: list[str], message: str = QUIZ) -> SimpleNamespace:
    outputs = [VOCAB.index(text) for text in written]
    extra = choice_kind.request_args(message)
    return SimpleNamespace(
        output_token_ids=outputs, sampling_params=SimpleNamespace(extra_args=extra)
    )


def held(written: list[str], best: str, message: str = QUIZ) -> set[str]:
    """The tokens a row still allows, once the rule has read `written`, `best` the likeliest."""
    logits = torch.zeros(1, len(VOCAB))
    logits[0, VOCAB.index(best)] = 5.0
    batch: list[Row] = [("r", request(written, message), 0, 1, [])]
    choice_kind.hold_choices(logits, batch, {}, strings)
    return {VOCAB[t] for t in torch.isfinite(logits[0]).nonzero().flatten().tolist()}


ASKS = [
    QUIZ,
    'Poll: "Where should we have the team offsite?" with Lisbon, Kraków, Edinburgh',
    "true or false quiz about space with 3 statements",
    "Customer satisfaction survey after a hotel stay: would you recommend us (Yes / No)",
]
DOES_NOT_ASK = [
    "a sales dashboard with a region filter and a monthly revenue chart",
    # A drop-down the request names is the designer's choice.
    "Course evaluation survey: difficulty slider, workload select (Light, Moderate, Heavy)",
    "a trivia night signup with a team size dropdown",
]


@pytest.mark.parametrize("message", ASKS)
def test_a_request_that_asks_a_question_asks_for_radios(message: str) -> None:
    assert choice_kind.request_args(message) == {choice_kind.EXTRA_ARG: True}


@pytest.mark.parametrize("message", DOES_NOT_ASK)
def test_one_that_asks_none_or_names_a_drop_down_does_not(message: str) -> None:
    assert choice_kind.request_args(message) == {}


@pytest.mark.parametrize("best", ["select", "sel"])
def test_a_select_begun_is_spelled_a_radio(best: str) -> None:
    assert held([PAGE, NODE], best) == {"radio", "ra", "r"}


def test_other_types_a_type_begun_and_a_request_that_did_not_ask_are_left_alone() -> None:
    assert held([PAGE, NODE], "stack") == set(VOCAB)
    assert held([PAGE, NODE], "s") == set(VOCAB)  # "s" may begin a stack or a slider
    assert held([PAGE, NODE, "s"], "elect") == set(VOCAB)  # a radio no longer
    assert held([PAGE, NODE], "select", DOES_NOT_ASK[0]) == set(VOCAB)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=5_000))
def test_any_message_is_read_within_its_bound(message: str) -> None:
    assert choice_kind.request_args(message) == choice_kind.request_args(message[:2_000])
