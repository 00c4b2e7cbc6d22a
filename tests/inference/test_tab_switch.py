"""A head's tab switch names a label of the tabs it switches (inference/serving/tab_switch.py),
on a scripted vocabulary: which rows keep only the tokens that spell a label, and which are left
alone."""

from __future__ import annotations

import functools
from types import SimpleNamespace

import torch

from inference.serving import tab_switch
from inference.serving.step_rows import OutputText, Row, Strings

PAGE = '{"title":"Dogs","root":{"t":"page","c":['
TABS = '{"t":"tabs","bind":"tab","tabs":["Adopt to adopt","Adoption"],"c":[]},'
BUTTON = '{"t":"button","label":"Go to Adoption","on":'
SWITCH = '{"do":"tab","path":"tab",'
OTHER = '{"do":"tab","path":"view",'
# A stand-in vocabulary, each id's text as the tokenizer decodes it alone ("" a special token).
VOCAB = [
    PAGE, TABS, BUTTON, SWITCH, OTHER,
    '"value":"', '"value', '":"', "Ad", "Adopt", "option", "opt", " Adoption", " to", " adopt",
    '"', '"}', '"}},', "Adoption", "x", "",
]  # fmt: skip


@functools.lru_cache  # one function, as token_strings gives: the caches key on it
def strings() -> Strings:
    return VOCAB.__getitem__


def ids(*texts: str) -> list[int]:
    return [VOCAB.index(text) for text in texts]


def request(outputs: list[int], asks: bool = True) -> SimpleNamespace:
    extra = tab_switch.request_args() if asks else {}
    return SimpleNamespace(
        output_token_ids=outputs, sampling_params=SimpleNamespace(extra_args=extra)
    )


def kept(logits: torch.Tensor, row: int) -> set[str]:
    return {VOCAB[t] for t in torch.isfinite(logits[row]).nonzero().flatten().tolist()}


def hold(logits: torch.Tensor, batch: list[Row]) -> int:
    return tab_switch.hold_switches(logits, batch, {}, strings)


def test_a_switch_at_drawn_tabs_goes_on_to_their_labels() -> None:
    text = PAGE + TABS + BUTTON + SWITCH + '"value":"Ad'
    assert tab_switch.switch_values(text) == (
        '"value":"Ad',
        ['"value":"Adopt to adopt"', '"value":"Adoption"'],
    )


def test_a_switch_at_tabs_not_drawn_or_past_its_value_is_free() -> None:
    assert tab_switch.switch_values(PAGE + BUTTON + SWITCH + '"value":"Ad') is None
    assert tab_switch.switch_values(PAGE + TABS + BUTTON + OTHER + '"value":"') is None
    assert tab_switch.switch_values(PAGE + TABS + BUTTON + SWITCH + '"value":"Ad Ad') is None
    assert tab_switch.switch_values(PAGE + TABS + BUTTON + SWITCH + '"value":"x"}},') is None


def test_a_row_writing_a_switch_keeps_only_the_tokens_that_spell_a_label() -> None:
    """After `"value":"Ad`, "opt" (of "Adopt to adopt") and "option" (of "Adoption") go on;
    " Adoption", which wrote "Ad Adoption" in round 3's profile-05, does not."""
    logits = torch.zeros(2, len(VOCAB))
    outputs = ids(PAGE, TABS, BUTTON, SWITCH, '"value":"', "Ad")
    batch: list[Row] = [("r", request(outputs), 0, 1, []), ("s", request(outputs[:3]), 1, 1, [])]
    assert hold(logits, batch) == 1
    assert kept(logits, 0) == {"opt", "option"}
    assert kept(logits, 1) == set(VOCAB)  # not in a switch: left alone


def test_a_label_ends_with_its_quote_and_what_the_grammar_allows_after_it() -> None:
    """Past the closing quote the grammar decides (it would mask `":"` there): only the
    tokens that do not start with the quote are masked."""
    logits = torch.zeros(1, len(VOCAB))
    outputs = ids(PAGE, TABS, BUTTON, SWITCH, '"value":"', "Adoption")
    assert hold(logits, [("r", request(outputs), 0, 1, [])]) == 1
    assert kept(logits, 0) == {t for t in VOCAB if t.startswith('"')}


def test_the_value_key_is_spelled_on_to_a_label() -> None:
    logits = torch.zeros(2, len(VOCAB))
    outputs = ids(PAGE, TABS, BUTTON, SWITCH)
    # Row 1 reads the draft '"value' as written.
    assert hold(logits, [("r", request(outputs), 0, 2, ids('"value'))]) == 2
    assert kept(logits, 0) == {'"value":"', '"value', '"'}
    assert kept(logits, 1) == {'"', '":"'}


def test_a_row_is_left_alone_where_the_grammar_allows_no_label() -> None:
    logits = torch.zeros(2, len(VOCAB))
    logits[0, ids("opt", "option")] = float("-inf")
    outputs = ids(PAGE, TABS, BUTTON, SWITCH, '"value":"', "Ad")
    batch: list[Row] = [("r", request(outputs), 0, 1, []), ("s", request(outputs, False), 1, 1, [])]
    assert hold(logits, batch) == 0
    assert len(kept(logits, 0)) == len(VOCAB) - 2
    assert kept(logits, 1) == set(VOCAB)  # it did not ask


def test_a_requests_text_is_read_once_as_its_tokens_come() -> None:
    store: dict[str, object] = {}
    outputs = ids(PAGE, TABS, BUTTON, SWITCH, '"value":"')
    for upto in (3, 5):
        logits = torch.zeros(1, len(VOCAB))
        tab_switch.hold_switches(logits, [("r", request(outputs[:upto]), 0, 1, [])], store, strings)
    written = store["r"]
    assert isinstance(written, OutputText)
    assert (written.reader.read, written.text) == (5, PAGE + TABS + BUTTON + SWITCH + '"value":"')
    assert kept(logits, 0) == {"Ad", "Adopt", "Adoption"}
