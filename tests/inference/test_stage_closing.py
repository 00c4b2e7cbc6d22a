"""Closing a stage cut at its token limit (inference/serving/stage_closing.py): the ending parses,
the engine's own grammar (over the model's vocabulary) takes it as complete, and the tail closed
after it declares what the head uses."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
import xgrammar as xgr

import ui4a
from inference.serving import stage_closing
from inference.serving.stage_closing import JSON_OPTIONS, closing
from inference.serving.staged_decode import tail_grammar
from inference.settings import EngineSettings
from ui4a.declarations import first_steps, head_schema, tail_schemas
from ui4a.validate import validate

SCHEMA = ui4a.json_schema(queries=False)
HEAD_SCHEMA = head_schema(SCHEMA)
# Heads the ui expert wrote for UI4A-Bench's dev prompts (2026-12-04), one in six.
HEADS: list[str] = json.loads(
    (Path(__file__).with_name("fixtures") / "generated_heads.json").read_text()
)
ROOMS = '{"title":"Rooms","root":{"t":"page","c":[{"t":"input","label":"Search","bind":"q"}]}}'


@pytest.fixture(scope="module")
def model_grammar() -> xgr.CompiledGrammar:
    """The head's grammar as vLLM compiles it, over the model's vocabulary."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(Path(EngineSettings.from_env().model))
    compiler = xgr.GrammarCompiler(xgr.TokenizerInfo.from_huggingface(tokenizer), max_threads=2)
    return compiler.compile_json_schema(json.dumps(HEAD_SCHEMA), **JSON_OPTIONS)


def complete_under(grammar: xgr.CompiledGrammar, text: str) -> bool:
    matcher = xgr.GrammarMatcher(grammar)
    return bool(matcher.accept_string(text)) and matcher.is_completed()


@pytest.mark.parametrize(
    ("cut_after", "ending"),
    [
        ('{"title":"Ro', '","root":{"t":"page"}}'),  # a string: its quote, then what is required
        ('{"title":"Rooms","root":{"t":"pa', 'ge"}}'),  # a constant: the rest of it
        # A key: the required one (not "if", which comes first and asks for more), then the
        # other required one; a string that must not be empty gets one letter.
        ('{"title":"Rooms","root":{"t":"page","c":[{"t":"input","', 'label":"x","bind":"x"}]}}'),
        (
            '{"title":"Rooms","root":{"t":"page","c":[{"t":"input","label":"Search","bind":"q"}',
            "]}}",
        ),
        (ROOMS, ""),  # whole already
    ],
)
def test_a_cut_head_gets_the_shortest_ending_its_grammar_allows(
    cut_after: str, ending: str, model_grammar: xgr.CompiledGrammar
) -> None:
    assert closing(cut_after, json_schema=HEAD_SCHEMA) == ending
    assert complete_under(model_grammar, cut_after + ending)


def test_a_flag_is_closed_false() -> None:
    """A wizard's `finished` declared true would show its "All set!" before the first step."""
    head = json.loads(ROOMS)
    head["root"]["c"].append({"t": "alert", "if": "finished", "text": "All set!"})
    grammar = tail_grammar("", tail_schemas(SCHEMA, head))
    assert closing(',"state":{"q":"","finished":', ebnf=grammar) == "false}}"


def wizard(*steps: int) -> dict[str, Any]:
    head: dict[str, Any] = json.loads(ROOMS)
    head["root"]["c"] += [{"t": "text", "if": f"step={n}", "text": f"Step {n}"} for n in steps]
    return head


def test_a_closed_wizard_starts_at_its_first_step() -> None:
    """A closed wizard's `step` at 0 would show none of its steps."""
    head = wizard(1, 2, 3)
    grammar = tail_grammar("", tail_schemas(SCHEMA, head))
    ending = closing(',"state":{"q":"",', ebnf=grammar, numbers=first_steps(head))
    assert ending == '"step":1}}'
    spec = json.loads(ROOMS[:-1] + ',"state":{"q":"",' + ending)
    assert validate(spec) == [] and spec["state"]["step"] == 1
    assert closing(',"state":{"q":"",', ebnf=grammar) == '"step":0}}'  # without: 0


@pytest.mark.parametrize(
    ("steps", "first"),
    [((1, 2, 3), {"step": 1}), ((3, 2), {"step": 2}), ((0, 1, 2), {}), ((3,), {}), ((), {})],
)
def test_first_steps_are_keys_shown_at_two_or_more_numbers_none_zero(
    steps: tuple[int, ...], first: dict[str, int]
) -> None:
    """A key compared with one number is a goal (`score=3`), not a step; one compared with 0
    starts there already."""
    assert first_steps(wizard(*steps)) == first


def test_text_the_grammar_does_not_take_is_not_closed() -> None:
    assert closing('{"title":"Rooms","root":{"t":"pager"', json_schema=HEAD_SCHEMA) is None
    assert closing("[1", json_schema=HEAD_SCHEMA) is None


def test_a_number_is_spelled_with_boundedly_many_digits() -> None:
    """A looping model wrote a price of 29 and 400 zeros, until the token limit cut it off."""
    slider = '{"title":"P","root":{"t":"page","c":[{"t":"slider","label":"Price","bind":"p","min":'
    for number in ("0", "-12", "4.99", "1250000.25", "9" * 12):
        assert closing(slider + number, json_schema=HEAD_SCHEMA) is not None, number
    assert closing(slider + "29" + "0" * 12, json_schema=HEAD_SCHEMA) is None
    assert closing(slider + "1.1234567", json_schema=HEAD_SCHEMA) is None
    rows = ',"data":{"items":[{"name":"Fern","price":'
    tail = tail_grammar("", tail_schemas(SCHEMA, {"root": {"t": "table", "data": "items"}}))
    assert closing(rows + "2900", ebnf=tail) is not None
    assert closing(rows + "29" + "0" * 20, ebnf=tail) is None


def test_an_ending_longer_than_the_bound_is_not_made(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(stage_closing, "MOST_CHARACTERS", 5)
    assert closing('{"title":"Rooms","root":{"t":"pa', json_schema=HEAD_SCHEMA) == 'ge"}}'
    assert closing('{"title":"Ro', json_schema=HEAD_SCHEMA) is None


def test_a_tail_is_closed_under_its_ebnf_grammar() -> None:
    grammar = tail_grammar("", tail_schemas(SCHEMA, json.loads(ROOMS)))
    ending = closing(',"state":{"q', ebnf=grammar)
    assert ending == '":""}}'
    assert validate(json.loads(ROOMS[:-1] + ',"state":{"q' + ending)) == []


def test_generated_heads_cut_anywhere_close_into_specs(model_grammar: xgr.CompiledGrammar) -> None:
    """Each head cut at 8 places: the ending makes a head the engine's grammar takes whole, and
    the tail closed after it makes a spec whose only problems are dialogs its buttons open
    (which the middle stage draws) or a key cut short."""
    rng = random.Random(12)
    cuts = 0
    for head in HEADS:
        for at in sorted(rng.sample(range(1, len(head)), 8)):
            ending = closing(head[:at], json_schema=HEAD_SCHEMA)
            assert ending is not None, head[:at]
            closed = head[:at] + ending
            assert complete_under(model_grammar, closed), closed
            spec: dict[str, Any] = json.loads(closed)
            tail = closing("", ebnf=tail_grammar("", tail_schemas(SCHEMA, spec)))
            assert tail is not None, closed
            problems = validate(json.loads(closed[:-1] + tail))
            assert all(p.code == "no_target" and "dialog" in p.message for p in problems), (
                closed,
                problems,
            )
            cuts += 1
    assert cuts == 8 * len(HEADS)
