"""A head steered off writing a node's child again (inference/serving/copy_steer.py), on a
scripted vocabulary: which rows' best tokens are pushed down, and which are left."""

from __future__ import annotations

import uuid
from dataclasses import replace
from types import SimpleNamespace

import torch

from inference.serving import copy_steer, identifier_kind, tab_switch, word_loop
from inference.serving.copy_steer import steer_rows, steered_text
from inference.serving.prompts import request_for
from inference.serving.repeat_watch import WatchedOutput

FIRST = '{"t":"stat","label":"Open tickets","value":"1,218"}'
HEAD = '{"title":"Help desk","root":{"t":"page","c":[{"t":"grid","cols":3,"c":[' + FIRST
# The text as the model's tokens spell it: the head so far, then a second tile's start.
PIECES = [HEAD, ",", '{"', "t", '":"', "stat", '","', "label", '":"']
SECOND = ',{"t":"stat","label":"Open bugs","value":"7"}'
VOCAB = [*dict.fromkeys([*PIECES, "Open", " tickets", " bugs", "Median", '"Open', '":', SECOND])]


def token(text: str) -> int:
    return VOCAB.index(text)


def strings(token_id: int) -> str:
    return VOCAB[token_id]


def state_after(pieces: list[str]) -> WatchedOutput:
    state = WatchedOutput()
    state.update([token(p) for p in pieces], strings)
    return state


def logits_favouring(*ranked: str, rows: int = 1) -> torch.Tensor:
    """Rows whose best tokens are `ranked`, best first."""
    logits = torch.full((rows, len(VOCAB)), -50.0)
    for score, text in zip(range(10, 0, -3), ranked, strict=False):
        logits[:, token(text)] = float(score)
    return logits


def best(logits: torch.Tensor, row: int = 0) -> str:
    return strings(int(logits[row].argmax()))


def test_a_display_text_a_copy_would_write_again_is_pushed_down() -> None:
    """The second tile has written `{"t":"stat","label":"` as the first did: its label's first
    token, "Open", would copy "Open tickets", so the model's next best is written."""
    logits = logits_favouring("Open", "Median")
    assert steer_rows(logits, 0, 1, [], state_after(PIECES), 8.0, strings) >= 1
    assert best(logits) == "Median"


def test_a_token_spelling_the_quote_and_the_text_is_pushed_down_too() -> None:
    logits = logits_favouring('"Open', "Median")
    steer_rows(logits, 0, 1, [], state_after([*PIECES[:-1], '":']), 8.0, strings)
    assert best(logits) == "Median"


def test_structure_is_never_pushed() -> None:
    """Before the label, the tile copies the first one's structure, which is the schema's."""
    logits = logits_favouring('":"', "Median")
    assert steer_rows(logits, 0, 1, [], state_after(PIECES[:-1]), 8.0, strings) == 0
    assert best(logits) == '":"'


def test_another_label_is_left_alone() -> None:
    logits = logits_favouring("Median", "Open")
    assert steer_rows(logits, 0, 1, [], state_after(PIECES), 8.0, strings) == 0


def test_a_row_after_drafts_that_start_the_copy_is_steered() -> None:
    """Drafts often spell the end of one tile and the start of the next at once: the row after
    them reads them as written."""
    drafts = [token(p) for p in PIECES[1:]]
    logits = logits_favouring("Open", "Median", rows=len(drafts) + 1)
    steer_rows(logits, 0, len(drafts) + 1, drafts, state_after(PIECES[:1]), 8.0, strings)
    assert best(logits, len(drafts)) == "Median"
    assert all(best(logits, row) == "Open" for row in range(len(drafts)))  # before it: structure


def test_a_tabs_panels_are_not_steered() -> None:
    """Child i of tabs is tab i's panel: alike is allowed (staged_decode.py keeps them too)."""
    tabs = '{"t":"tabs","bind":"tab","tabs":["A","B"],"c":[' + FIRST
    pieces = [tabs, ",", *PIECES[2:]]
    vocab_before = len(VOCAB)
    VOCAB.append(tabs)
    try:
        logits = logits_favouring("Open", "Median")
        assert steer_rows(logits, 0, 1, [], state_after(pieces), 8.0, strings) == 0
    finally:
        del VOCAB[vocab_before:]


def test_where_a_copy_writes_its_display_text_next() -> None:
    assert steered_text(FIRST, FIRST.index("Open")) == (FIRST[FIRST.index("Open") :], 0)
    at_quote = FIRST.index("Open") - 1
    assert steered_text(FIRST, at_quote) == (FIRST[at_quote:], 1)
    assert steered_text(FIRST, FIRST.index("value")) is None  # "value" is no display text


def test_only_a_head_asks_to_be_steered() -> None:
    from inference.serving.engine import VllmEngine
    from inference.settings import EngineSettings

    engine = VllmEngine.__new__(VllmEngine)  # its sampling params only: no model is loaded
    engine.settings = replace(EngineSettings.from_env(), copy_bias=0.0, copy_steer=8.0)
    engine._tokenizer = SimpleNamespace(encode=lambda text, add_special_tokens: [])
    spec = request_for(request_id=str(uuid.uuid4()), expert="ui", prompt="tiles", max_tokens=9)
    head = engine._sampling_params(spec).extra_args
    assert head == (
        {copy_steer.EXTRA_ARG: {"by": 8.0}}
        | tab_switch.request_args()
        | identifier_kind.request_args()
        | word_loop.request_args()
    )
    later = engine._sampling_params(spec, spec_from=12).extra_args  # a later stage
    assert copy_steer.EXTRA_ARG not in later
    assert tab_switch.EXTRA_ARG not in later  # its tabs' labels are the middle stage's (undrawn.py)
    assert identifier_kind.EXTRA_ARG not in later  # the head writes every input
    engine.settings = replace(engine.settings, identifier_text=False)
    assert identifier_kind.EXTRA_ARG not in engine._sampling_params(spec).extra_args
    chat = request_for(request_id=str(uuid.uuid4()), expert="chat", prompt="hi", max_tokens=9)
    assert not engine._sampling_params(chat).extra_args
    engine.settings = replace(engine.settings, copy_steer=0.0)
    assert copy_steer.EXTRA_ARG not in engine._sampling_params(spec).extra_args


def test_a_copy_of_any_earlier_child_is_steered_off() -> None:
    """The third tile starts "Open" like both before it: neither's next word is written."""
    state = state_after([PIECES[0], SECOND, *PIECES[1:], "Open"])
    logits = logits_favouring(" tickets", " bugs", "Median")
    assert steer_rows(logits, 0, 1, [], state, 8.0, strings) == 2
    assert best(logits) == "Median"


def test_rows_after_a_draft_vllm_left_out_are_not_read() -> None:
    """vLLM pads a step's drafts with -1 where they broke the grammar: no text to read, and the
    rows after one are thrown away, so they are left as they are."""

    def text_of(token_id: int) -> str:  # as the tokenizer: a -1 is no token
        assert token_id >= 0, "a left-out draft was read"
        return strings(token_id)

    drafts = [*(token(p) for p in PIECES[1:]), -1]
    logits = logits_favouring("Open", "Median", rows=len(drafts) + 1)
    steer_rows(logits, 0, len(drafts) + 1, drafts, state_after(PIECES[:1]), 8.0, text_of)
    assert best(logits, len(drafts) - 1) == "Median"  # the row after the last real draft
    assert best(logits, len(drafts)) == "Open"
