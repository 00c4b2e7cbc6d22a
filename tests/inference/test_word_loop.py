"""No word a third time in a row (inference/serving/word_loop.py), on a scripted vocabulary:
which rows lose the word's tokens, and which are left alone."""

from __future__ import annotations

import functools
from types import SimpleNamespace

import pytest
import torch

from inference.serving import word_loop
from inference.serving.step_rows import Row, Strings

# A stand-in vocabulary, each id's text as the tokenizer decodes it alone.
VOCAB = ["md", " simple", " Simple", "simple", " sim", " si", " summary", ".", " 0", ' "', "\n"]
NEG = float("-inf")


@functools.lru_cache  # one function, as token_strings gives: the caches key on it
def strings() -> Strings:
    return VOCAB.__getitem__


def ids(*texts: str) -> list[int]:
    return [VOCAB.index(text) for text in texts]


def request(outputs: list[int], asks: bool = True, prompt: tuple[int, ...] = ()) -> SimpleNamespace:
    extra = word_loop.request_args() if asks else {}
    return SimpleNamespace(
        output_token_ids=outputs,
        prompt_token_ids=list(prompt),
        sampling_params=SimpleNamespace(extra_args=extra),
    )


def scores(rows: int) -> torch.Tensor:
    return torch.zeros(rows, len(VOCAB))


def masked(logits: torch.Tensor, row: int) -> set[str]:
    return {VOCAB[t] for t in torch.isneginf(logits[row]).nonzero().flatten().tolist()}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("**Weekly summary** simple simple", ("simple", False)),
        ("Signup signup", ("signup", False)),
        ("simple\nsimple ", ("simple", True)),
        ("a simple summary", None),
        ("simple simple summary", None),
        ("0 0", None),  # numbers may repeat
        ("a a", None),  # so may one letter
        ("simplesimple", None),  # one word
        ("oversimple simple", None),  # another word, ending alike
    ],
)
def test_a_word_written_twice_at_the_end(text: str, expected: tuple[str, bool] | None) -> None:
    assert word_loop.written_twice(text) == expected


def test_the_tokens_that_start_the_word_again() -> None:
    """After "simple simple", a space and the word, in any case, or its start of three letters
    or more; after "simple simple ", the word without its space."""
    word_loop.word_tokens.cache_clear()
    spaced = word_loop.starting_again("simple", False, strings(), len(VOCAB))
    assert {VOCAB[t] for t in spaced} == {" simple", " Simple", " sim"}
    bare = word_loop.starting_again("simple", True, strings(), len(VOCAB))
    assert {VOCAB[t] for t in bare} == {"simple"}


def test_a_row_after_a_word_twice_loses_its_tokens() -> None:
    logits = scores(1)
    batch: list[Row] = [("r", request(ids("md", " simple", " simple")), 0, 1, [])]
    assert word_loop.forbid_loops(logits, batch, strings) == 1
    assert masked(logits, 0) == {" simple", " Simple", " sim"}


def test_each_row_reads_the_drafts_before_it() -> None:
    """Row j of a request follows its drafts 0..j-1: the row after a drafted second " simple"
    is masked, the row before it is not; a -1 draft (left out by vLLM) ends the reading."""
    logits = scores(3)
    batch: list[Row] = [("r", request(ids("md", " simple")), 0, 3, ids(" simple", " summary"))]
    assert word_loop.forbid_loops(logits, batch, strings) == 1
    again = {" simple", " Simple", " sim"}
    assert [masked(logits, row) for row in range(3)] == [set(), again, set()]

    logits = scores(3)
    left_out: list[Row] = [("r", request(ids("md", " simple", " simple")), 0, 3, [-1, 1])]
    assert word_loop.forbid_loops(logits, left_out, strings) == 1
    assert [bool(masked(logits, row)) for row in range(3)] == [True, False, False]


def test_a_spec_stage_reads_back_into_its_prompt() -> None:
    """A later stage's first tokens follow the text its prompt ends with."""
    logits = scores(1)
    batch: list[Row] = [("r", request([], prompt=tuple(ids("md", " simple", " simple"))), 0, 1, [])]
    assert word_loop.forbid_loops(logits, batch, strings) == 1


def test_requests_that_do_not_ask_and_rows_left_no_token_are_left_alone() -> None:
    logits = scores(2)
    logits[1] = NEG
    logits[1, VOCAB.index(" simple")] = 1.0  # the grammar allows nothing else
    batch: list[Row] = [
        ("chat", request(ids("md", " simple", " simple"), asks=False), 0, 1, []),
        ("ui", request(ids("md", " simple", " simple")), 1, 1, []),
    ]
    before = logits.clone()
    assert word_loop.forbid_loops(logits, batch, strings) == 0
    assert torch.equal(logits, before)


def test_every_stage_of_a_spec_asks_and_a_chat_does_not() -> None:
    import uuid
    from dataclasses import replace

    from inference.serving.engine import VllmEngine
    from inference.serving.prompts import request_for
    from inference.settings import EngineSettings

    engine = VllmEngine.__new__(VllmEngine)  # its sampling params only: no model is loaded
    engine.settings = replace(EngineSettings.from_env(), copy_bias=0.0, copy_steer=0.0)
    engine._tokenizer = SimpleNamespace(encode=lambda text, add_special_tokens: [])
    spec = request_for(request_id=str(uuid.uuid4()), expert="ui", prompt="tiles", max_tokens=9)
    for spec_from in (None, 12):  # the head, and a later stage
        extra = engine._sampling_params(spec, spec_from=spec_from).extra_args
        assert extra[word_loop.EXTRA_ARG] is True
    chat = request_for(request_id=str(uuid.uuid4()), expert="chat", prompt="hi", max_tokens=9)
    assert not engine._sampling_params(chat).extra_args
