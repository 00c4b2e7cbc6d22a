"""The request's phrases carried on while a spec decodes (inference/serving/copy_follow.py):
which clauses, which tokens follow which, bounded for any message, and added to the right
rows of the logits with drafts or without."""

from __future__ import annotations

import uuid
from dataclasses import replace
from types import SimpleNamespace

import torch
from vllm.sampling_params import SamplingParams

from inference.serving import copy_bias, copy_follow
from inference.serving.copy_follow import Follow
from inference.serving.prompts import request_for
from inference.serving.step_rows import batch_rows


def test_clauses_end_at_punctuation_and_brackets_and_keep_a_question_mark() -> None:
    said = "haircut booking: choose stylist (Ana, Ben, Chloe), then a time. FAQ: How do I join?"
    assert copy_follow.clauses(said) == [
        "haircut booking",
        "choose stylist",
        "Ana",
        "Ben",
        "Chloe",
        "then a time",
        "FAQ",
        "How do I join?",
    ]
    assert copy_follow.clauses('a "Was this helpful?" prompt, Pro $49.50') == [
        "a",
        "Was this helpful?",
        "prompt",
        "Pro $49.50",
    ]


def test_any_message_is_read_within_bounds() -> None:
    huge = ", ".join(f"word{i} word{i}b" for i in range(100_000))
    assert sum(len(c) for c in copy_follow.clauses(huge)) < copy_follow.MAX_CHARACTERS
    found = copy_follow.phrases(lambda text: [hash(w) for w in text.split()], huge)
    assert sum(len(ids) for ids in found) <= copy_follow.MAX_TOKENS
    assert copy_follow.phrases(lambda text: [1], "one, two") == []  # no phrase in one token


# Tokens: 1 How, 2 do, 3 I, 4 join, 5 ?, 6 does, 7 it, 8 " a"; content words 1, 4.
PHRASES = [[1, 2, 3, 4, 5], [1, 6, 7, 8, 4]]


def test_the_next_token_follows_a_pair_else_a_content_word() -> None:
    follow = Follow.of(PHRASES, frozenset({1, 4}))
    assert follow.after([9, 1]) == (2, 6)  # "How": either phrase
    assert follow.after([1, 2]) == (3,)  # "How do": the first only
    assert follow.after([2, 3]) == (4,)
    assert follow.after([7, 8]) == (4,)  # "it a" -> join, by the pair
    assert follow.after([9, 8]) == ()  # " a" alone is no content word
    assert follow.after([4, 5]) == ()  # the phrase is over
    assert follow.after([]) == ()


def params(**more: object) -> SamplingParams:
    wanted = {"tokens": [1, 4], "bias": 1.0, "follow": 3.0, "phrases": PHRASES, **more}
    return SamplingParams(extra_args={copy_bias.EXTRA_ARG: wanted})


def rows_after(output: list[int], drafts: list[int] | None = None) -> list[list[float]]:
    state = SimpleNamespace(sampling_params=params(), prompt_token_ids=[], output_token_ids=output)
    batch = SimpleNamespace(input_batch=SimpleNamespace(req_ids=["a"]), requests={"a": state})
    meta = None
    if drafts is not None:
        meta = SimpleNamespace(num_draft_tokens=[len(drafts)], draft_token_ids=torch.tensor(drafts))
    logits = torch.zeros(1 + len(drafts or []), 10)
    copy_bias.add_biases(logits, copy_bias.sampled_rows(batch, batch_rows(batch, meta)))
    return [[round(x, 1) for x in row] for row in logits.tolist()]


def test_a_phrases_next_token_gets_the_follow_bias_on_top() -> None:
    fresh = rows_after([])
    assert fresh == [[0, 1, 0, 0, 1, 0, 0, 0, 0, 0]]  # the copy bias alone
    after_how = rows_after([1])
    assert after_how[0][2] == 3.0 and after_how[0][6] == 3.0 and after_how[0][3] == 0
    after_how_do = rows_after([1, 2])
    assert after_how_do[0][3] == 3.0 and after_how_do[0][6] == 0


def test_each_row_follows_the_drafts_before_it() -> None:
    """Row j is biased as an engine without drafts would bias it after writing drafts 0..j-1."""
    rows = rows_after([1], drafts=[2, 3])
    assert [row.index(max(row)) for row in rows] == [2, 3, 4]  # "do", "I", "join"
    assert rows[0][6] == 3.0 and rows[1][6] == 0


def encode(text: str) -> list[int]:
    """A stand-in tokenizer: one id per character."""
    return [ord(c) for c in text]


def test_phrases_are_asked_for_only_when_followed() -> None:
    off = copy_bias.extra_args(encode, "choose Ana, Ben", 2.0)[copy_bias.EXTRA_ARG]
    assert "follow" not in off
    on = copy_bias.extra_args(encode, "choose Ana, Ben", 2.0, follow=2.5)[copy_bias.EXTRA_ARG]
    assert on["follow"] == 2.5
    assert on["phrases"] == [encode("choose Ana"), encode("Ben")]


def test_the_engine_passes_its_follow_setting_to_a_specs_sampling() -> None:
    from inference.serving.engine import VllmEngine
    from inference.settings import EngineSettings

    engine = VllmEngine.__new__(VllmEngine)  # its sampling params only: no model is loaded
    engine.settings = replace(EngineSettings.from_env(), copy_bias=2.0, copy_follow=0.0)
    engine._tokenizer = SimpleNamespace(encode=lambda text, add_special_tokens: encode(text))
    spec = request_for(
        request_id=str(uuid.uuid4()), expert="ui", prompt="Mira Okafor", max_tokens=9
    )
    assert "follow" not in engine._sampling_params(spec).extra_args[copy_bias.EXTRA_ARG]
    engine.settings = replace(engine.settings, copy_follow=5.0)
    said = engine._sampling_params(spec).extra_args[copy_bias.EXTRA_ARG]
    assert said["follow"] == 5.0 and said["phrases"] == [encode("Mira Okafor")]
