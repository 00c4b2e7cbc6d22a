"""A head's identifier field takes text, not a number (inference/serving/identifier_kind.py), on a
scripted vocabulary: which rows keep only the tokens that spell a text kind, and which are left
alone."""

from __future__ import annotations

import functools
from types import SimpleNamespace

import pytest
import torch

from inference.serving import identifier_kind
from inference.serving.step_rows import Row, Strings

PAGE = '{"title":"Orders","root":{"t":"page","c":['
ORDER = '{"t":"input","label":"Order number","bind":"order_number",'
PHONE = '{"t":"input","label":"Phone number","bind":"phone",'
GUESTS = '{"t":"input","label":"Number of guests","bind":"guests",'
KIND = '"kind":"'
# A stand-in vocabulary, each id's text as the tokenizer decodes it alone ("" a special token).
VOCAB = [
    PAGE, ORDER, PHONE, GUESTS, KIND,
    "number", "num", "n", "date", "email", "text", "te", "t", "tel", "password", '"', '","', "",
]  # fmt: skip


@functools.lru_cache  # one function, as token_strings gives: the caches key on it
def strings() -> Strings:
    return VOCAB.__getitem__


def request(written: list[str], asks: bool = True) -> SimpleNamespace:
    extra = identifier_kind.request_args() if asks else {}
    outputs = [VOCAB.index(text) for text in written]
    return SimpleNamespace(
        output_token_ids=outputs, sampling_params=SimpleNamespace(extra_args=extra)
    )


def held(written: list[str], best: str, asks: bool = True) -> set[str]:
    """The tokens a row still allows, once the rule has read `written`, `best` the likeliest."""
    logits = torch.zeros(1, len(VOCAB))
    logits[0, VOCAB.index(best)] = 5.0
    batch: list[Row] = [("r", request(written, asks), 0, 1, [])]
    identifier_kind.hold_identifiers(logits, batch, {}, strings)
    return {VOCAB[t] for t in torch.isfinite(logits[0]).nonzero().flatten().tolist()}


@pytest.mark.parametrize("best", ["number", "num", "n", "date", "email"])
def test_an_identifier_kind_that_is_no_text_is_spelled_text(best: str) -> None:
    assert held([PAGE, ORDER, KIND], best) == {"text", "te", "t"}


def test_a_phone_number_is_spelled_tel() -> None:
    assert held([PAGE, PHONE, KIND], "number") == {"tel", "te", "t"}


def test_a_text_kind_the_model_chose_stands() -> None:
    assert held([PAGE, PHONE, KIND], "te") == set(VOCAB)
    assert held([PAGE, ORDER, KIND], "password") == set(VOCAB)


def test_a_quantity_a_request_that_did_not_ask_and_a_row_past_the_kind_are_left_alone() -> None:
    assert held([PAGE, GUESTS, KIND], "number") == set(VOCAB)
    assert held([PAGE, ORDER, KIND], "number", asks=False) == set(VOCAB)
    assert held([PAGE, ORDER, KIND, "text", '","'], "number") == set(VOCAB)


def test_a_row_after_a_draft_reads_the_draft() -> None:
    """Row 1 is read after draft `"kind":"`: it writes the kind, and is held; row 0 is not."""
    logits = torch.zeros(2, len(VOCAB))
    logits[:, VOCAB.index("number")] = 5.0
    batch: list[Row] = [("r", request([PAGE, ORDER]), 0, 2, [VOCAB.index(KIND)])]
    assert identifier_kind.hold_identifiers(logits, batch, {}, strings) == 1
    assert torch.isfinite(logits[0]).all()
    assert {VOCAB[t] for t in torch.isfinite(logits[1]).nonzero().flatten().tolist()} == {
        "text",
        "te",
        "t",
    }
