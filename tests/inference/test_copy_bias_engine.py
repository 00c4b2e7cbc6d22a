"""The copy bias on the real engine, drafts on as served: the ui expert's greedy specs carry
more of the prompt's own words with it than without it, and an engine with no drafts writes
the same biased specs (the bias is added to the draft rows too). The prompts are new ones,
asking for names and details that no training record has. Both engines run in float32: in
bfloat16 a forward over a draft rounds its rows otherwise than one over a single token."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from dataclasses import replace

import pytest

from inference.serving.copy_bias import content_words
from inference.serving.engine import VllmEngine
from inference.serving.prompts import request_for
from inference.settings import EngineSettings

pytestmark = pytest.mark.engine

PROMPTS = (
    "adoption page for a rescue shelter: Biscuit the beagle, Luna the tabby, Pepper the rabbit, "
    "each with an Adopt button",
    "compare three e-bikes, Volta Commuter, Ridgeline Trail and Pocket Fold, by range, weight "
    "and price in a table",
    "a cafe menu with Flat white 3.20, Oat latte 3.60 and Cardamom bun 2.80, and an Order button",
)


@pytest.fixture(scope="module")
def engine() -> Iterator[VllmEngine]:
    engine = VllmEngine(replace(EngineSettings.from_env(), cpu_dtype="float32"))
    assert engine.settings.draft_tokens > 0  # drafts on: vLLM's own logit_bias would be off
    yield engine
    engine.shutdown()


def specs(engine: VllmEngine, bias: float, others: bool = True) -> list[str]:
    """The specs of PROMPTS at `bias`; with the head's other rules that write the prompt's
    words (its lists, named buttons, named fields, lists drawn as cards and named texts) on or
    off (`others`). Settings are read per request."""
    engine.settings = replace(
        engine.settings,
        copy_bias=bias,
        list_hold=others,
        button_hold=others,
        field_hold=others,
        list_cards=others,
        named_texts=others,
        choice_radios=others,
    )
    written = []
    for prompt in PROMPTS:
        request = request_for(
            request_id=str(uuid.uuid4()), expert="ui", prompt=prompt, max_tokens=700
        )
        written.append("".join(d.text for d in engine.stream(request)))
    return written


@pytest.fixture(scope="module")
def biased(engine: VllmEngine) -> list[str]:
    return specs(engine, 2.0)


def words_carried(written: list[str]) -> int:
    """How many of the prompts' content words the specs hold."""
    carried = 0
    for prompt, text in zip(PROMPTS, written, strict=True):
        spec_text = json.dumps(json.loads(text)).lower()
        carried += sum(
            1 for w in content_words(prompt) if re.search(rf"\b{re.escape(w.lower())}\b", spec_text)
        )
    return carried


def test_the_bias_carries_more_of_the_prompts_words(engine: VllmEngine) -> None:
    # The bias alone: the named-button rule drew the cafe's "Order" button in both specs, and
    # the counts tied (16 and 16).
    served = engine.settings
    try:
        without = words_carried(specs(engine, 0.0, others=False))
        with_bias = words_carried(specs(engine, 2.0, others=False))
    finally:
        engine.settings = served
    assert with_bias > without, (with_bias, without)


# The studio's default prompt, and a showcase prompt: the bias once titled them "Signup signup"
# and "Book book search".
DOUBLED_BEFORE = (
    "a signup form with name, email, a password and a terms checkbox",
    "keep track of novels I want to read: type a book's title, press Add book, and it shows up "
    "in the list underneath",
)
DISPLAY = re.compile(r'"(?:label|text|title|submit)"\s*:\s*"((?:[^"\\]|\\.)*)"')
DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)


def test_asked_not_to_the_bias_does_not_write_a_word_twice_in_a_row(engine: VllmEngine) -> None:
    served = engine.settings
    engine.settings = replace(served, copy_bias=2.0, copy_bias_no_stutter=True)
    try:
        for prompt in DOUBLED_BEFORE:
            request = request_for(
                request_id=str(uuid.uuid4()), expert="ui", prompt=prompt, max_tokens=700
            )
            text = "".join(d.text for d in engine.stream(request))
            shown = [m.group(1) for m in DISPLAY.finditer(text)]
            assert shown and not [s for s in shown if DOUBLED.search(s)], shown
    finally:
        engine.settings = served


def test_an_engine_without_drafts_writes_the_same_biased_specs(
    engine: VllmEngine, biased: list[str]
) -> None:
    engine.shutdown()  # one engine at a time on a small host
    plain = VllmEngine(
        replace(engine.settings, spec_ngram_tokens=0, jump_forward=False, corpus_draft_tokens=0)
    )
    try:
        assert plain.settings.draft_tokens == 0
        assert specs(plain, 2.0) == biased
    finally:
        plain.shutdown()
