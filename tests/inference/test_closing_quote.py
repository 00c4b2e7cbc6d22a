"""A string ended where the model meant to end it (inference/serving/closing_quote.py), on a
scripted vocabulary: which rows are left only the closing quote, and which are left alone."""

from __future__ import annotations

import functools
from types import SimpleNamespace

import torch

from inference.serving import closing_quote, word_loop
from inference.serving.step_rows import Strings

# A stand-in vocabulary, each id's text as the tokenizer decodes it alone.
VOCAB = ['","', "','", '"', '"}', "Read", "0", '"label']
NEG = float("-inf")
ALL = torch.tensor([True])  # one row, asking


@functools.lru_cache  # one function, as token_strings gives: the caches key on it
def strings() -> Strings:
    return VOCAB.__getitem__


def row(scores: dict[str, float]) -> list[float]:
    return [scores.get(text, NEG) for text in VOCAB]


def test_a_forbidden_best_that_closes_the_string_ends_it() -> None:
    """`","` was the model's best and the grammar forbids it: only `"` is left, whatever the
    next allowed token was (`','`, which began the junk)."""
    logits = torch.tensor([row({"','": 18.0, '"': 9.0, '"}': 14.0, "Read": 14.0})])
    best = torch.tensor([VOCAB.index('","')])
    assert closing_quote.end_strings(logits, best, strings, ALL) == 1
    assert logits.tolist() == [row({'"': 9.0})]


def test_rows_the_rule_does_not_fit_are_left_alone() -> None:
    logits = torch.tensor(
        [
            row({'","': 26.0, "','": 18.0, '"': 9.0}),  # the best is allowed
            row({"','": 18.0, '"': 9.0}),  # the best ("Read", masked) does not close a string
            row({"','": 18.0, "Read": 3.0}),  # the best closes one, but a lone quote is forbidden
            row({'"': 9.0, "Read": 3.0}),  # the best ('"label', masked) opens a key: the grammar's
        ]
    )
    before = logits.clone()
    best = torch.tensor(
        [VOCAB.index('","'), VOCAB.index("Read"), VOCAB.index('","'), VOCAB.index('"label')]
    )
    assert closing_quote.end_strings(logits, best, strings, torch.ones(4, dtype=torch.bool)) == 0
    assert torch.equal(logits, before)


def test_nothing_noted_changes_nothing() -> None:
    """A step without structured output is never masked, and notes no best tokens; a note of
    another shape (a stale one) is not read either."""
    logits = torch.tensor([row({"','": 18.0, '"': 9.0})])
    assert closing_quote.end_strings(logits, None, strings, ALL) == 0
    assert closing_quote.end_strings(logits, torch.tensor([0, 0]), strings, ALL) == 0


def test_the_mask_notes_the_best_before_it_and_the_note_is_read_once() -> None:
    def mask(scheduler_output: object, grammar_output: object, batch: object, logits: torch.Tensor):
        logits[:, 0] = NEG

    batch = SimpleNamespace()
    logits = torch.tensor([row({'","': 26.0, '"': 9.0})])
    closing_quote.noting_best(mask)(None, None, batch, logits)
    assert closing_quote.noted_best(batch).tolist() == [0]
    assert closing_quote.noted_best(batch) is None


def test_the_plugin_wraps_vllms_grammar_mask() -> None:
    from vllm.plugins import load_general_plugins
    from vllm.v1.worker import gpu_model_runner

    load_general_plugins()
    assert hasattr(gpu_model_runner.apply_grammar_bitmask, "__wrapped__"), "not installed"


def test_only_the_rows_of_a_request_that_asks_are_ended() -> None:
    """A head does not ask (its strings are the page's); the stages after it do."""
    asking = SimpleNamespace(
        sampling_params=SimpleNamespace(extra_args=closing_quote.request_args())
    )
    head = SimpleNamespace(sampling_params=SimpleNamespace(extra_args={}))
    batch = [("head", head, 0, 2, [9]), ("tail", asking, 2, 1, [])]
    assert closing_quote.asking_rows(3, batch).tolist() == [False, False, True]
    logits = torch.tensor([row({"','": 18.0, '"': 9.0})] * 3)
    best = torch.tensor([VOCAB.index('","')] * 3)
    assert closing_quote.end_strings(logits, best, strings, torch.tensor([0, 0, 1]).bool()) == 1
    assert logits[2].tolist() == row({'"': 9.0}) and logits[0].tolist() == row(
        {"','": 18.0, '"': 9.0}
    )


def test_the_stages_after_the_head_ask_and_the_head_does_not() -> None:
    import uuid
    from dataclasses import replace

    from inference.serving.engine import VllmEngine
    from inference.serving.prompts import request_for
    from inference.settings import EngineSettings

    engine = VllmEngine.__new__(VllmEngine)  # its sampling params only: no model is loaded
    engine.settings = replace(EngineSettings.from_env(), copy_bias=0.0)
    engine._tokenizer = SimpleNamespace(encode=lambda text, add_special_tokens: [])
    spec = request_for(request_id=str(uuid.uuid4()), expert="ui", prompt="tiles", max_tokens=9)
    assert closing_quote.EXTRA_ARG not in engine._sampling_params(spec).extra_args
    later = engine._sampling_params(spec, spec_from=12).extra_args
    assert later == closing_quote.request_args() | word_loop.request_args()
