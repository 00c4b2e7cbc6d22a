"""Staged decoding's engine side (inference/serving/staged_decode.py), with the real tokenizer and
xgrammar, and a scripted stand-in for vLLM's `generate` that replays outputs token by token (the
real engine's run of it is in test_staged_decode_engine.py)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import xgrammar as xgr

import ui4a
from inference.serving.stage_closing import JSON_OPTIONS, closing
from inference.serving.staged_decode import (
    LOOP_CHARS,
    PAGE_END,
    HeadEnd,
    Piece,
    cut_at,
    drawn_grammar,
    first_stage_schema,
    head_end,
    staged,
    tail_grammar,
    tail_request_id,
    targets_request_id,
)
from inference.settings import EngineSettings
from ui4a.declarations import head_schema, tail_schemas
from ui4a.tables import Column, Table
from ui4a.undrawn import Undrawn, to_draw, undrawn
from ui4a.validate import validate

BASE = Path(EngineSettings.from_env().model)
SCHEMA = ui4a.json_schema(queries=False)
HEAD = (
    '{"title":"Rooms","root":{"t":"page","c":[{"t":"input","label":"Search","bind":"q"},'
    '{"t":"table","data":"rooms","cols":["room"],"title":"Rooms"}]}}'
)
TAIL = ',"state":{"q":""},"data":{"rooms":[{"room":"Aurora"},{"room":"Comet"}]}}'


@pytest.fixture(scope="module")
def tokenizer() -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(BASE)


@pytest.fixture(scope="module")
def compiler(tokenizer: Any) -> xgr.GrammarCompiler:
    return xgr.GrammarCompiler(xgr.TokenizerInfo.from_huggingface(tokenizer), max_threads=2)


ORDERS = Table(
    "orders", (Column("sold_on", "date"), Column("blend", "category"), Column("eur", "number"))
)
SCHEMAS = {
    "no queries": ui4a.json_schema(queries=False),
    "queries by shape": ui4a.json_schema(queries=True),
    "queries over tables": ui4a.json_schema_over([ORDERS]),
}


@pytest.mark.parametrize("schema", SCHEMAS.values(), ids=SCHEMAS.keys())
def test_the_head_and_a_tail_compile_as_vllm_compiles_them(tokenizer: Any, schema: Any) -> None:
    """In xgrammar's caching compiler, vLLM's (on by default): it fails on some grammars that
    compile without its cache (a character class repeated ~130 times or more, as a URL pattern
    of 400 characters was), so a grammar change is checked here, not first in the worker."""
    cached = xgr.GrammarCompiler(xgr.TokenizerInfo.from_huggingface(tokenizer), max_threads=2)
    full = schema
    cached.compile_json_schema(first_stage_schema(json.dumps(full)), **JSON_OPTIONS)
    cached.compile_grammar(tail_grammar("}", tail_schemas(full, json.loads(HEAD))))
    drawn = [Undrawn("dialog", "confirm"), Undrawn("tabs", "view", ("Score", "Question"))]
    cached.compile_grammar(drawn_grammar("}", full, json.loads(OPENS), drawn))


def accepts(compiler: xgr.GrammarCompiler, grammar: str, text: str) -> bool:
    matcher = xgr.GrammarMatcher(compiler.compile_grammar(grammar))
    return bool(matcher.accept_string(text)) and matcher.is_completed()


def test_the_tail_grammar_makes_data_declare_every_named_dataset(
    compiler: xgr.GrammarCompiler,
) -> None:
    tail = tail_schemas(SCHEMA, json.loads(HEAD))
    grammar = tail_grammar("}]", tail)
    assert accepts(compiler, grammar, "}]" + TAIL)
    assert accepts(compiler, grammar, '}],"state":{"q":""},"data":{"rooms":[]}}')
    assert not accepts(compiler, grammar, '}],"state":{"q":""}}')  # the table names nothing
    assert not accepts(compiler, grammar, '}],"state":{"q":""},"data":{"other":[]}}')
    assert not accepts(compiler, grammar, '}],"state":{"q":""},"data":{"rooms":[]}')  # not closed
    assert not accepts(compiler, grammar, '}],"state":{"q":""}, "data":{"rooms":[]}}')  # no spaces
    assert not accepts(compiler, grammar, '}],"data":{"rooms":[]}}')  # the input binds nothing


def test_over_a_projects_tables_the_tail_grammar_names_only_their_columns(
    compiler: xgr.GrammarCompiler,
) -> None:
    grammar = tail_grammar("}]", tail_schemas(SCHEMAS["queries over tables"], json.loads(HEAD)))
    read = '}],"state":{"q":""},"data":{"rooms":{"from":"orders",%s}}}'
    assert accepts(compiler, grammar, read % '"group":"sold_on:month","agg":{"eur":"sum"}')
    assert accepts(compiler, grammar, read % '"group":"blend","agg":{"n":"count","t":"max:eur"}')
    assert accepts(compiler, grammar, read % '"columns":["sold_on","eur"],"limit":15')
    assert not accepts(compiler, grammar, read % '"group":"date:month"')
    assert not accepts(compiler, grammar, read % '"group":"blend:month"')
    assert not accepts(compiler, grammar, read % '"agg":{"bags":"sum"}')
    assert not accepts(compiler, grammar, read % '"columns":["price"]')
    assert not accepts(compiler, grammar, '}],"state":{"q":""},"data":{"rooms":{"from":"sales"}}}')


def test_a_head_that_names_nothing_ends_at_once(compiler: xgr.GrammarCompiler) -> None:
    tail = tail_schemas(SCHEMA, {"root": {"t": "page", "c": []}})
    assert accepts(compiler, tail_grammar("", tail), "}")
    assert not accepts(compiler, tail_grammar("", tail), ',"state":{"n":1}}')
    assert not accepts(compiler, tail_grammar("", tail), ',"data":{"any":[]}}')


def test_the_tail_grammar_declares_each_key_the_head_uses_once(
    compiler: xgr.GrammarCompiler,
) -> None:
    head = {"root": {"t": "page", "c": [{"t": "switch", "label": "Dark", "bind": "dark"}]}}
    grammar = tail_grammar("", tail_schemas(SCHEMA, head))
    assert accepts(compiler, grammar, ',"state":{"dark":false}}')
    assert not accepts(compiler, grammar, "}")  # the switch would bind nothing
    assert not accepts(compiler, grammar, ',"state":{"dark":false,"dark":true}}')
    assert not accepts(compiler, grammar, ',"state":{"dark":"on"}}')
    assert not accepts(compiler, grammar, ',"state":{"dark":false,"n":1}}')


def test_the_head_is_cut_before_its_closing_token(tokenizer: Any) -> None:
    ids = tokenizer.encode(HEAD)
    cut = head_end([*ids, tokenizer.eos_token_id], tokenizer)
    assert cut is not None
    assert cut.kept_ids == ids[:-1]
    assert tokenizer.decode(cut.kept_ids) + cut.respelled + "}" == HEAD
    assert head_end(tokenizer.encode('{"title":"x"'), tokenizer) is None


def test_an_early_compile_is_asked_for_the_schema_the_first_stage_decodes_under() -> None:
    """With `MACARON_GRAMMAR_PRECOMPILE=1` the engine core compiles the warm-up's first schema
    while the model loads; staged, that is the head's, as vLLM will be given it."""
    first = json.loads(first_stage_schema(json.dumps(SCHEMA)))
    assert list(first["properties"]) == ["title", "theme", "root"]
    other = json.dumps({"type": "object", "properties": {"answer": {"type": "string"}}})
    assert first_stage_schema(other) == other


@dataclass
class Output:
    """The fields of vLLM's RequestOutput that staged decoding reads."""

    outputs: list[Any]
    finished: bool
    prompt_token_ids: list[int] | None


@dataclass
class Completion:
    text: str
    token_ids: list[int]
    finish_reason: str | None


@dataclass
class ScriptedGenerate:
    """vLLM's `generate`, replaying scripted texts a token at a time, and noting each call."""

    tokenizer: Any
    texts: dict[str, tuple[str, str]]  # request id: (text, finish reason)
    calls: list[tuple[Any, Any, str]] = field(default_factory=list)
    yielded: dict[str, int] = field(default_factory=dict)  # request id: outputs given

    async def __call__(self, prompt: Any, params: Any, request_id: str) -> AsyncIterator[Any]:
        self.calls.append((prompt, params, request_id))
        text, reason = self.texts[request_id]
        ids = self.tokenizer.encode(text)
        if reason == "stop":
            ids.append(self.tokenizer.eos_token_id)
        prompt_ids = prompt["prompt_token_ids"] if isinstance(prompt, dict) else [1, 2, 3]
        for n, token in enumerate(ids):
            last = n == len(ids) - 1
            piece = self.tokenizer.decode([token], skip_special_tokens=True)
            self.yielded[request_id] = n + 1
            yield Output([Completion(piece, [token], reason if last else None)], last, prompt_ids)


def params(**stage: Any) -> dict[str, Any]:
    return stage


def run(
    generate: ScriptedGenerate, max_tokens: int = 700, earlier: tuple[str, ...] = ()
) -> list[Piece]:
    async def collect() -> list[Piece]:
        stream = staged(
            generate, "prompt", params, SCHEMA, "r1", generate.tokenizer, max_tokens, earlier
        )
        return [piece async for piece in stream]

    return asyncio.run(collect())


def test_the_stages_stream_one_spec_that_declares_what_it_names(
    tokenizer: Any, compiler: xgr.GrammarCompiler
) -> None:
    cut = head_end(tokenizer.encode(HEAD), tokenizer)
    assert cut is not None
    tail_text = cut.respelled + TAIL  # what the tail's grammar makes it write
    generate = ScriptedGenerate(
        tokenizer, {"r1": (HEAD, "stop"), tail_request_id("r1"): (tail_text, "stop")}
    )
    pieces = run(generate)
    text = "".join(p.text for p in pieces)
    assert text == HEAD[:-1] + TAIL
    assert validate(json.loads(text)) == []
    assert [p.finish_reason for p in pieces if p.finish_reason] == ["stop"]
    assert pieces[-1].finish_reason == "stop"
    (_, head_params, _), (tail_prompt, tail_params, tail_id) = generate.calls
    assert head_params["json"]["properties"].keys() == {"title", "theme", "root"}
    head_ids = tokenizer.encode(HEAD)
    assert tail_prompt == {"prompt_token_ids": [1, 2, 3, *head_ids[:-1]]}
    assert tail_id == "r1:tail"
    assert tail_params["max_tokens"] == 700 - (len(head_ids) - 1)
    assert "rooms" in tail_params["grammar"]
    assert accepts(compiler, tail_params["grammar"], tail_text)
    tail_ids = [*tokenizer.encode(tail_text), tokenizer.eos_token_id]
    assert pieces[-1].tokens == len(head_ids) - 1 + len(tail_ids)
    assert all(p.prompt_tokens == 3 for p in pieces)


def test_a_head_cut_at_the_limit_is_closed_and_the_tail_declares_what_it_names(
    tokenizer: Any,
) -> None:
    """A head cut at the token limit (a wizard that repeats its steps): its grammar's shortest
    ending closes it, the tail runs on the tokens left, and is closed in turn when cut too; the
    spec validates, and the generation ends with "length"."""
    cut_off = HEAD[:50]  # ...{"t":"inp
    ending = closing(cut_off, json_schema=head_schema(SCHEMA))
    assert ending == 'ut","label":"x","bind":"x"}]}}'
    cut = head_end(tokenizer.encode(cut_off) + tokenizer.encode(ending), tokenizer)
    assert cut is not None
    generate = ScriptedGenerate(
        tokenizer,
        {
            "r1": (cut_off, "length"),
            tail_request_id("r1"): (cut.respelled + ',"state":{', "length"),
        },
    )
    pieces = run(generate)
    text = "".join(p.text for p in pieces)
    assert text == cut_off + ending[:-1] + ',"state":{"x":""}}'
    assert validate(json.loads(text)) == []
    assert [p.finish_reason for p in pieces if p.finish_reason] == ["length"]
    (_, _, _), (tail_prompt, tail_params, _) = generate.calls
    assert tail_prompt == {"prompt_token_ids": [1, 2, 3, *cut.kept_ids]}
    assert tail_params["max_tokens"] == 700 - len(cut.kept_ids)
    # Only what the model wrote counts, not the closing's text.
    tail_ids = tokenizer.encode(cut.respelled + ',"state":{')
    assert pieces[-1].tokens == len(tokenizer.encode(cut_off)) + len(tail_ids)


def test_a_wizard_cut_at_the_limit_shows_its_first_step(tokenizer: Any) -> None:
    """The tail of a wizard whose head ran to the limit is all closing: its `step` starts at
    the first step the tree shows, so the closed view shows one."""
    steps = [{"t": "text", "if": f"step={n}", "text": f"Step {n}"} for n in (1, 2, 3)]
    head = json.dumps({"title": "Join", "root": {"t": "page", "c": steps}}, separators=(",", ":"))
    cut_off = head[: head.rindex("}]}}") - 3]  # inside the third step's text
    ending = closing(cut_off, json_schema=head_schema(SCHEMA))
    assert ending is not None
    cut = head_end(tokenizer.encode(cut_off) + tokenizer.encode(ending), tokenizer)
    assert cut is not None
    generate = ScriptedGenerate(
        tokenizer, {"r1": (cut_off, "length"), tail_request_id("r1"): (cut.respelled, "length")}
    )
    spec = json.loads("".join(p.text for p in run(generate)))
    assert spec["state"] == {"step": 1}
    assert validate(spec) == []


def test_a_closed_head_then_a_whole_tail_still_ends_with_length(tokenizer: Any) -> None:
    cut_off = HEAD[:50]
    ending = closing(cut_off, json_schema=head_schema(SCHEMA))
    assert ending is not None
    cut = head_end(tokenizer.encode(cut_off) + tokenizer.encode(ending), tokenizer)
    assert cut is not None
    tail_text = cut.respelled + ',"state":{"x":"Aurora"}}'
    generate = ScriptedGenerate(
        tokenizer, {"r1": (cut_off, "length"), tail_request_id("r1"): (tail_text, "stop")}
    )
    pieces = run(generate)
    assert validate(json.loads("".join(p.text for p in pieces))) == []
    assert [p.finish_reason for p in pieces if p.finish_reason] == ["length"]


def test_a_head_cut_where_its_grammar_cannot_go_on_ends_as_it_is(tokenizer: Any) -> None:
    """Text no grammar made (a backend that let it through) is not closed: it ends as it is."""
    cut_off = '{"title":"Rooms","root":{"t":"pager'
    generate = ScriptedGenerate(tokenizer, {"r1": (cut_off, "length")})
    pieces = run(generate)
    assert "".join(p.text for p in pieces) == cut_off
    assert pieces[-1].finish_reason == "length"
    assert len(generate.calls) == 1


def test_a_head_that_is_no_spec_ends_the_generation_as_it_is(tokenizer: Any) -> None:
    """A backend that let unclosed JSON through: the stream still ends, with what it wrote."""
    unclosed = '{"title":"x","root":{"t":"page"}'
    generate = ScriptedGenerate(tokenizer, {"r1": (unclosed, "stop")})
    pieces = run(generate)
    assert "".join(p.text for p in pieces) == unclosed
    assert pieces[-1].finish_reason == "stop"
    assert len(generate.calls) == 1


# A head that opens a dialog it never draws (the button is written first, and the head's
# grammar cannot look ahead), as the expert wrote three of the dev set's 150 specs.
OPENS = (
    '{"title":"Pets","root":{"t":"page","c":[{"t":"text","text":"Rex"},'
    '{"t":"button","label":"Delete pet","on":{"do":"open","path":"confirm"}}]}}'
)
DIALOG = (
    ',{"t":"dialog","title":"Delete Rex?","bind":"confirm","c":[{"t":"button","label":"Cancel",'
    '"on":{"do":"close","path":"confirm"}}]}'
)
CONFIRM = Undrawn("dialog", "confirm")


def test_a_dialog_the_head_opens_but_never_draws_is_to_be_drawn() -> None:
    head = json.loads(OPENS)
    assert undrawn(head) == [CONFIRM] and to_draw(SCHEMA, head) == [CONFIRM]
    drawn = json.loads(OPENS[: -len(PAGE_END)] + DIALOG + PAGE_END)
    assert undrawn(drawn) == []
    # A page that cannot hold one more child gets none: the spec stays invalid, and ends.
    full = {**head, "root": {"t": "page", "c": head["root"]["c"] * 4}}
    assert undrawn(full) == [CONFIRM] and to_draw(SCHEMA, full) == []


def test_the_head_is_cut_before_the_pages_closing_bracket(tokenizer: Any) -> None:
    ids = tokenizer.encode(OPENS)
    at = len(OPENS) - len(PAGE_END)
    cut = cut_at([*ids, tokenizer.eos_token_id], tokenizer, OPENS, at)
    assert cut is not None
    assert tokenizer.decode(cut.kept_ids) + cut.respelled == OPENS[:at]
    assert cut_at(ids, tokenizer, '{"other":1}', at) is None  # not what the ids spell


def three_stages(
    tokenizer: Any, head: str, drawn: str, tail: str
) -> tuple[ScriptedGenerate, HeadEnd, HeadEnd]:
    """A scripted generation of `head`, a middle stage that draws `drawn` as the page's last
    children, and a tail that writes `tail`; and where the head and the middle stage are cut."""
    page = cut_at(tokenizer.encode(head), tokenizer, head, len(head) - len(PAGE_END))
    assert page is not None
    middle = page.respelled + drawn + PAGE_END  # what the middle stage's grammar makes
    cut = head_end([*page.kept_ids, *tokenizer.encode(middle), tokenizer.eos_token_id], tokenizer)
    assert cut is not None
    texts = {
        "r1": (head, "stop"),
        targets_request_id("r1"): (middle, "stop"),
        tail_request_id("r1"): (cut.respelled + tail, "stop"),
    }
    return ScriptedGenerate(tokenizer, texts), page, cut


def test_a_middle_stage_draws_the_dialog_and_the_tail_declares_its_key(
    tokenizer: Any, compiler: xgr.GrammarCompiler
) -> None:
    generate, page, cut = three_stages(tokenizer, OPENS, DIALOG, ',"state":{"confirm":false}}')
    dialog_text = generate.texts[targets_request_id("r1")][0]
    tail_text = generate.texts[tail_request_id("r1")][0]
    pieces = run(generate)
    text = "".join(p.text for p in pieces)
    assert text == OPENS[: -len(PAGE_END)] + DIALOG + ']},"state":{"confirm":false}}'
    assert validate(json.loads(text)) == []
    assert [p.finish_reason for p in pieces if p.finish_reason] == ["stop"]
    (_, _, _), (dialog_prompt, dialog_params, _), (tail_prompt, tail_params, _) = generate.calls
    assert dialog_prompt == {"prompt_token_ids": [1, 2, 3, *page.kept_ids]}
    assert dialog_params["spec_from"] == 3  # the copy bias counts the spec from the head on
    assert accepts(compiler, dialog_params["grammar"], dialog_text)
    other = dialog_text.replace('"bind":"confirm"', '"bind":"other"')
    assert not accepts(compiler, dialog_params["grammar"], other)
    assert not accepts(compiler, dialog_params["grammar"], page.respelled + PAGE_END)
    # Its buttons aim only at what the spec will hold: no stage after it would draw more.
    aims_elsewhere = dialog_text.replace('"close","path":"confirm"', '"open","path":"elsewhere"')
    assert aims_elsewhere != dialog_text
    assert not accepts(compiler, dialog_params["grammar"], aims_elsewhere)
    assert tail_prompt == {"prompt_token_ids": [1, 2, 3, *cut.kept_ids]}
    assert accepts(compiler, tail_params["grammar"], tail_text)
    tail_ids = [*tokenizer.encode(tail_text), tokenizer.eos_token_id]
    assert pieces[-1].tokens == len(cut.kept_ids) + len(tail_ids)


def test_a_middle_stage_cut_at_the_limit_is_closed_and_the_tail_follows(tokenizer: Any) -> None:
    page = cut_at(tokenizer.encode(OPENS), tokenizer, OPENS, len(OPENS) - len(PAGE_END))
    assert page is not None
    partial = page.respelled + DIALOG[:20]  # ...{"t":"dialog","titl
    grammar = drawn_grammar(page.respelled, SCHEMA, json.loads(OPENS), [CONFIRM])
    ending = closing(partial, ebnf=grammar)
    assert ending is not None and ending.endswith(PAGE_END)
    ids = [*page.kept_ids, *tokenizer.encode(partial), *tokenizer.encode(ending)]
    cut = head_end(ids, tokenizer)
    assert cut is not None
    generate = ScriptedGenerate(
        tokenizer,
        {
            "r1": (OPENS, "stop"),
            targets_request_id("r1"): (partial, "length"),
            tail_request_id("r1"): (cut.respelled + ',"state":{"confirm":false}}', "stop"),
        },
    )
    pieces = run(generate)
    text = "".join(p.text for p in pieces)
    assert text.startswith(OPENS[: -len(PAGE_END)] + DIALOG[:20])
    assert validate(json.loads(text)) == []
    assert [p.finish_reason for p in pieces if p.finish_reason] == ["length"]
    assert len(generate.calls) == 3


# A head whose buttons switch to tabs it never draws (quiz-02, from a CPU-trained adapter).
SWITCHES = (
    '{"title":"Quiz","root":{"t":"page","c":[{"t":"text","text":"7 x 8 = ?"},'
    '{"t":"button","label":"Go to Score","on":{"do":"tab","path":"view","value":"Score"}},'
    '{"t":"button","label":"Back","on":{"do":"tab","path":"view","value":"Question"}}]}}'
)
TABS = (
    ',{"t":"tabs","bind":"view","tabs":["Score","Question"],"c":['
    '{"t":"text","text":"Score: 3"},{"t":"text","text":"What is 7 x 8?"}]}'
)


def test_a_middle_stage_draws_the_tabs_the_head_switches_to_with_their_labels(
    tokenizer: Any, compiler: xgr.GrammarCompiler
) -> None:
    head = json.loads(SWITCHES)
    assert to_draw(SCHEMA, head) == [Undrawn("tabs", "view", ("Score", "Question"))]
    generate, _, _ = three_stages(tokenizer, SWITCHES, TABS, ',"state":{"view":"Score"}}')
    tabs_text = generate.texts[targets_request_id("r1")][0]
    text = "".join(p.text for p in run(generate))
    assert text == SWITCHES[: -len(PAGE_END)] + TABS + ']},"state":{"view":"Score"}}'
    assert validate(json.loads(text)) == []
    assert validate(json.loads(SWITCHES[:-1] + ',"state":{"view":"Score"}}')) != []
    grammar = generate.calls[1][1]["grammar"]
    assert accepts(compiler, grammar, tabs_text)
    # Exactly the labels the buttons name, in their order, and a panel for each.
    for wrong in ('["Question","Score"]', '["Score"]', '["Score","Question","Help"]'):
        assert not accepts(compiler, grammar, tabs_text.replace('["Score","Question"]', wrong))
    one_panel = tabs_text.replace(',{"t":"text","text":"What is 7 x 8?"}', "")
    assert not accepts(compiler, grammar, one_panel)
    assert not accepts(compiler, grammar, tabs_text.replace('"bind":"view"', '"bind":"tab"'))


# A section written twice, verbatim, then more of the page (the README's sales dashboard once
# showed two "Revenue $1.11M" tiles).
CARD = '{"t":"card","title":"Basic","c":[{"t":"text","text":"5 euros a month"}]}'
NOTE = '{"t":"text","text":"Prices include tax"}'
TWICE = '{"title":"Plans","root":{"t":"page","c":[' + CARD + "," + CARD + "," + NOTE + "]}}"
ONCE = TWICE.replace(CARD + "," + CARD, CARD)


def streamed_texts(pieces: list[Piece]) -> list[str]:
    """The spec as a viewer saw it after each piece."""
    texts, text = [], ""
    for piece in pieces:
        text += piece.text
        texts.append(text)
    return texts


def test_a_heads_copied_child_is_hidden_and_the_page_goes_on(tokenizer: Any) -> None:
    """The copy is never streamed and not in the spec; the rest of the page is. The tail's
    prompt spells the spec so far, and the copy's tokens count as written."""
    cut = head_end(tokenizer.encode(ONCE), tokenizer)
    assert cut is not None
    generate = ScriptedGenerate(
        tokenizer, {"r1": (TWICE, "stop"), tail_request_id("r1"): (cut.respelled + "}", "stop")}
    )
    pieces = run(generate)
    text = "".join(p.text for p in pieces)
    assert text == ONCE
    assert all(ONCE.startswith(seen) for seen in streamed_texts(pieces))
    assert [p.finish_reason for p in pieces if p.finish_reason] == ["stop"]
    (_, _, _), (tail_prompt, tail_params, _) = generate.calls
    assert tokenizer.decode(tail_prompt["prompt_token_ids"][3:]) + cut.respelled == ONCE[:-1]
    head_ids = tokenizer.encode(TWICE)
    assert pieces[-1].tokens == len(head_ids) - 1 + len(tokenizer.encode(cut.respelled + "}")) + 1
    assert tail_params["max_tokens"] == 700 - (len(head_ids) - 1)


def test_a_refinement_keeps_the_copies_the_version_it_refines_held(tokenizer: Any) -> None:
    """A card the designer duplicated by hand is theirs: the model's rewrite keeps both."""
    cut = head_end(tokenizer.encode(TWICE), tokenizer)
    assert cut is not None
    generate = ScriptedGenerate(
        tokenizer, {"r1": (TWICE, "stop"), tail_request_id("r1"): (cut.respelled + "}", "stop")}
    )
    assert "".join(p.text for p in run(generate, earlier=(TWICE,))) == TWICE
    other = TWICE.replace("5 euros", "9 euros")  # the version held another card twice
    generate = ScriptedGenerate(
        tokenizer, {"r1": (TWICE, "stop"), tail_request_id("r1"): (cut.respelled + "}", "stop")}
    )
    assert "".join(p.text for p in run(generate, earlier=(other,))) == ONCE


def looping_card(tokenizer: Any, copies: int) -> tuple[ScriptedGenerate, str]:
    """A head that writes a card and then `copies` copies of it, verbatim, until the token
    limit; and the spec with the card once."""
    looping = '{"title":"Plans","root":{"t":"page","c":[' + ",".join([CARD] * (1 + copies))
    ending = closing(looping, json_schema=head_schema(SCHEMA))
    assert ending == "]}}"
    once = '{"title":"Plans","root":{"t":"page","c":[' + CARD + ending
    cut = head_end(tokenizer.encode(once), tokenizer)
    assert cut is not None
    generate = ScriptedGenerate(
        tokenizer,
        {"r1": (looping, "length"), tail_request_id("r1"): (cut.respelled + "}", "stop")},
    )
    return generate, once


def test_a_head_that_writes_a_child_again_where_its_copy_was_hidden_ends_there(
    tokenizer: Any,
) -> None:
    """A card written again and again: the first two copies are hidden, and the model, whose
    context still holds them, writes it again at the same place. The head ends there, before the
    rest of the loop, and the generation ends whole ("stop"), with the card once."""
    generate, once = looping_card(tokenizer, copies=5)
    pieces = run(generate)
    assert "".join(p.text for p in pieces) == once
    assert [p.finish_reason for p in pieces if p.finish_reason] == ["stop"]
    assert validate(json.loads(once)) == []
    written = len(tokenizer.encode('{"title":"Plans","root":{"t":"page","c":[' + CARD))
    assert generate.yielded["r1"] < written + 4 * len(tokenizer.encode("," + CARD))
    (_, _, _), (tail_prompt, _, _) = generate.calls
    spelled = tokenizer.decode(tail_prompt["prompt_token_ids"][3:])  # the spec as shown
    assert once.startswith(spelled) and len(spelled) >= len(once) - len("]}}")


def test_a_head_that_has_hidden_enough_copies_ends_at_its_next(tokenizer: Any) -> None:
    """Each card written twice, each copy elsewhere: none is written where another was hidden,
    but once the copies hidden reach LOOP_CHARS characters the next copy ends the head, whole.
    (survey-04 wrote form cards and their fields again until the token limit.)"""

    def card(n: int) -> str:
        texts = ",".join(f'{{"t":"text","text":"{letter * 90}"}}' for letter in "xy")
        return f'{{"t":"card","title":"Card {n}","c":[{texts}]}}'

    cards = [card(n) for n in range(4)]  # a page holds 8 children
    before = '{"title":"Plans","root":{"t":"page","c":['
    looping = before + ",".join(c for c in cards for _ in range(2)) + "," + card(4)
    per_copy = len("," + cards[0])
    shown_cards = -(-LOOP_CHARS // per_copy)  # whose copies, hidden, reach the budget
    assert shown_cards == 3
    shown = before + ",".join(cards[: shown_cards + 1]) + "]}}"
    cut = head_end(tokenizer.encode(shown), tokenizer)
    assert cut is not None
    generate = ScriptedGenerate(
        tokenizer,
        {"r1": (looping, "length"), tail_request_id("r1"): (cut.respelled + "}", "stop")},
    )
    pieces = run(generate, max_tokens=4096)
    assert "".join(p.text for p in pieces) == shown
    assert [p.finish_reason for p in pieces if p.finish_reason] == ["stop"]


def test_a_head_cut_at_the_limit_after_two_hidden_copies_shows_the_child_once(
    tokenizer: Any,
) -> None:
    """Two copies, then the token limit: a model may write on after copies (a dashboard's tiles,
    then its table), so both are hidden, the head is closed by its grammar, and the generation
    says it ran out ("length")."""
    generate, once = looping_card(tokenizer, copies=2)
    pieces = run(generate)
    assert "".join(p.text for p in pieces) == once
    assert [p.finish_reason for p in pieces if p.finish_reason] == ["length"]


def test_copies_within_a_copy_are_hidden_too(tokenizer: Any) -> None:
    """A card whose child is copied, then the card again as the model wrote it: both copies go,
    since the second card is the first once its own copy is hidden."""
    line = '{"t":"text","text":"5 euros a month"}'
    card = '{"t":"card","title":"Basic","c":[' + line + "," + line + "]}"
    head = '{"title":"Plans","root":{"t":"page","c":[' + card + "," + card + "," + NOTE + "]}}"
    shown = '{"title":"Plans","root":{"t":"page","c":[{"t":"card","title":"Basic","c":['
    shown += line + "]}," + NOTE + "]}}"
    cut = head_end(tokenizer.encode(shown), tokenizer)
    assert cut is not None
    generate = ScriptedGenerate(
        tokenizer, {"r1": (head, "stop"), tail_request_id("r1"): (cut.respelled + "}", "stop")}
    )
    assert "".join(p.text for p in run(generate)) == shown


def test_panels_alike_are_still_each_its_tabs(tokenizer: Any) -> None:
    """Child i of tabs is tab i's panel: two alike are kept, or the tabs would lose one."""
    panel = '{"t":"text","text":"Nothing here yet, come back soon"}'
    tabs = '{"t":"tabs","bind":"tab","tabs":["Inbox","Sent"],"c":[' + panel + "," + panel + "]}"
    head = '{"title":"Mail","root":{"t":"page","c":[' + tabs + "]}}"
    cut = head_end(tokenizer.encode(head), tokenizer)
    assert cut is not None
    tail = cut.respelled + ',"state":{"tab":"Inbox"}}'
    generate = ScriptedGenerate(
        tokenizer, {"r1": (head, "stop"), tail_request_id("r1"): (tail, "stop")}
    )
    text = "".join(p.text for p in run(generate))
    assert text == head[:-1] + ',"state":{"tab":"Inbox"}}'
    assert validate(json.loads(text)) == []


def test_a_tail_that_writes_a_row_again_keeps_one(tokenizer: Any) -> None:
    """The copy is never streamed, the tail's request is stopped there, and its grammar closes
    it after the first row: the spec ends whole ("stop"), not cut off at the token limit."""
    head = HEAD.replace('"cols":["room"]', '"cols":["room","floor"]')
    cut = head_end(tokenizer.encode(head), tokenizer)
    assert cut is not None
    row = '{"room":"Aurora suite","floor":"Third"}'
    tail_text = cut.respelled + ',"state":{"q":""},"data":{"rooms":[' + ",".join([row] * 9)
    generate = ScriptedGenerate(
        tokenizer, {"r1": (head, "stop"), tail_request_id("r1"): (tail_text, "length")}
    )
    pieces = run(generate)
    text = "".join(p.text for p in pieces)
    assert text == head[:-1] + ',"state":{"q":""},"data":{"rooms":[' + row + "]}}"
    streamed = ""
    for piece in pieces:  # never a copy's first character, then the copy cut away
        streamed += piece.text
        assert text.startswith(streamed)
    assert validate(json.loads(text)) == []
    assert pieces[-1].finish_reason == "stop"
    assert generate.yielded[tail_request_id("r1")] < len(tokenizer.encode(tail_text)) // 2


def wizard_step(n: int, heading: str, label: str) -> str:
    """A wizard's step as the served adapter writes them: a heading, a field and a button."""
    button = {"t": "button", "label": "Next", "on": {"do": "set", "path": "step", "value": n + 1}}
    field = {"t": "input", "label": label, "bind": label.lower()}
    step = {
        "t": "stack",
        "if": f"step={n}",
        "c": [{"t": "heading", "text": heading}, field, button],
    }
    return json.dumps(step, separators=(",", ":"))


WIZARD_PAGE = '{"title":"Setup","root":{"t":"page","c":['
WIZARD_STATE = ',"state":{"step":1,"room":"","time":""}}'


def wizard_steps(count: int) -> list[str]:
    names = [("Room", "Room"), ("Schedule", "Time")] * (count // 2)
    return [wizard_step(n, heading, label) for n, (heading, label) in enumerate(names, 1)]


def looping_wizard(tokenizer: Any, before: str = "") -> tuple[ScriptedGenerate, str, str, Any]:
    """A head that writes `before`, then a wizard's two steps again and again to the token
    limit: its generate, its text, the spec it shows (the head ended after the fourth step,
    the second with nothing new, then the tail) and the head's cut for the tail."""
    steps = wizard_steps(12)
    looping = WIZARD_PAGE + before + ",".join(steps)
    shown = WIZARD_PAGE + before + ",".join(steps[:4]) + "]}}"
    cut = head_end(tokenizer.encode(shown), tokenizer)
    assert cut is not None
    generate = ScriptedGenerate(
        tokenizer,
        {"r1": (looping, "length"), tail_request_id("r1"): (cut.respelled + WIZARD_STATE, "stop")},
    )
    return generate, looping, shown[:-1] + WIZARD_STATE, cut


def test_a_head_that_loops_with_small_changes_ends_after_its_second_stale_child(
    tokenizer: Any,
) -> None:
    """A wizard's steps written again and again with other numbers, to the token limit: the
    head ends after the second step that shows nothing new (inference/serving/repeat_watch.py),
    closed by its grammar; the tail follows, and the spec ends whole, long before the limit."""
    generate, looping, shown, cut = looping_wizard(tokenizer)
    pieces = run(generate)
    text = "".join(p.text for p in pieces)
    assert text == shown
    assert all(text.startswith(seen) for seen in streamed_texts(pieces))
    assert validate(json.loads(text)) == []
    assert [p.finish_reason for p in pieces if p.finish_reason] == ["stop"]
    assert generate.yielded["r1"] < len(tokenizer.encode(looping)) // 2
    (_, _, _), (tail_prompt, _, _) = generate.calls
    assert (
        tokenizer.decode(tail_prompt["prompt_token_ids"][3:]) + cut.respelled
        == text[: -len(WIZARD_STATE)]
    )


def test_a_loop_after_a_hidden_copy_ends_the_head_as_shown(tokenizer: Any) -> None:
    """A copy hidden before the loop: the head still ends after the second stale step, and the
    tail's prompt spells the spec as shown, without the copy."""
    generate, _, shown, cut = looping_wizard(tokenizer, before=CARD + "," + CARD + ",")
    pieces = run(generate)
    assert "".join(p.text for p in pieces) == shown.replace(CARD + "," + CARD, CARD)
    assert [p.finish_reason for p in pieces if p.finish_reason] == ["stop"]
    (_, _, _), (tail_prompt, _, _) = generate.calls
    spelled = tokenizer.decode(tail_prompt["prompt_token_ids"][3:]) + cut.respelled
    assert spelled == shown[: -len(WIZARD_STATE)].replace(CARD + "," + CARD, CARD)


def test_a_refinement_of_a_page_with_steps_alike_writes_them_all(tokenizer: Any) -> None:
    """Sections alike but for a number, in the version the designer refines, are theirs: the
    model's rewrite writes them all, and its head is not ended at the second."""
    head = WIZARD_PAGE + ",".join(wizard_steps(6)) + "]}}"
    cut = head_end(tokenizer.encode(head), tokenizer)
    assert cut is not None
    version = head[:-1] + WIZARD_STATE

    def generate() -> ScriptedGenerate:
        tail = cut.respelled + WIZARD_STATE
        return ScriptedGenerate(
            tokenizer, {"r1": (head, "stop"), tail_request_id("r1"): (tail, "stop")}
        )

    assert "".join(p.text for p in run(generate(), earlier=(version,))) == version
    assert "".join(p.text for p in run(generate())) != version  # a new screen ends it
