"""Staged decoding on the real engine (on unless `MACARON_STAGED_DATA=0`): the ui expert's greedy
spec keeps the root it writes in one stage, and now declares every dataset that root names.
The two prompts are dev-set screens whose one-stage specs named a dataset they never declared."""

from __future__ import annotations

import json
import logging
import re
import uuid
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

import ui4a
from inference.protocol import Delta, GenerationRequest
from inference.serving import stage_closing, staged_decode
from inference.serving.engine import VllmEngine
from inference.serving.prompts import refine_request_for, request_for
from inference.serving.tail_budget import records_that_fit
from inference.settings import EngineSettings
from ui4a.declarations import head_schema, named_datasets
from ui4a.repair import repair
from ui4a.validate import validate

pytestmark = pytest.mark.engine

# Screens whose one-stage greedy spec names a dataset it never declares, under today's adapter
# and grammar (test_one_stage_specs_name_datasets_they_never_declare holds them to it).
PROMPTS = (
    "Keep track of book loans: table of borrowed books (book, borrower, due date), a New loan "
    "button, and a count of books currently out",
    "people directory — search by name and department filter (Design, Engineering, Sales), "
    "show matching people in a list",
)


RECIPE_SEARCH = (
    "Recipe search: a search box, filters for diet (Any, Vegetarian, Vegan, Gluten-free) and max "
    "cooking time, results as cards with minutes"
)


@pytest.fixture(scope="module")
def engine() -> Iterator[VllmEngine]:
    # The prompts were picked for what the expert writes without the copy bias
    # (inference/serving/copy_bias.py) and the named-field rule (field_completion.py), which
    # staging must hold whatever the decoding favours. With the field rule on, the people
    # directory drew its department select, and its one-stage spec declared what it named.
    settings = replace(EngineSettings.from_env(), staged_data=True, copy_bias=0.0, field_hold=False)
    engine = VllmEngine(settings)
    yield engine
    engine.shutdown()


def specs(engine: VllmEngine, *, staged: bool) -> list[dict[str, Any]]:
    # The engine reads the setting per request, so one engine serves both ways.
    engine.settings = replace(engine.settings, staged_data=staged)
    written = []
    for prompt in PROMPTS:
        request = request_for(
            request_id=str(uuid.uuid4()), expert="ui", prompt=prompt, max_tokens=700
        )
        deltas = list(engine.stream(request))
        assert deltas[-1].finish_reason == "stop"
        written.append(json.loads("".join(d.text for d in deltas)))
    return written


@pytest.fixture(scope="module")
def one_stage(engine: VllmEngine) -> list[dict[str, Any]]:
    return specs(engine, staged=False)


@pytest.fixture(scope="module")
def two_stages(engine: VllmEngine, one_stage: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return specs(engine, staged=True)


def undeclared(spec: dict[str, Any]) -> list[str]:
    return [name for name in named_datasets(spec) if name not in spec.get("data", {})]


def test_one_stage_specs_name_datasets_they_never_declare(one_stage: list[dict[str, Any]]) -> None:
    """What the staged test below guards against, so it cannot pass by the prompts alone."""
    assert all(undeclared(spec) for spec in one_stage), one_stage


def test_two_stages_declare_every_named_dataset_with_rows(
    two_stages: list[dict[str, Any]],
) -> None:
    for spec in two_stages:
        assert named_datasets(spec) and not undeclared(spec), spec
        assert all(spec["data"][name] for name in named_datasets(spec)), spec["data"]
        assert repair(spec).problems == [], spec


def shown(spec: dict[str, Any]) -> dict[str, Any]:
    """`spec` as a staged head shows it: a child written again, verbatim, hidden."""
    text = json.dumps(spec, separators=(",", ":"), ensure_ascii=False)
    view = staged_decode.Spec()
    view.hide(view.add(text, 0, None))
    shown: dict[str, Any] = json.loads(view.text)
    return shown


def test_the_first_stage_writes_the_root_one_stage_writes(
    one_stage: list[dict[str, Any]], two_stages: list[dict[str, Any]]
) -> None:
    for alone, staged in zip(one_stage, two_stages, strict=True):
        assert staged["root"] == shown(alone)["root"]
        assert staged.get("title") == alone.get("title")


# A dev-set screen whose greedy head, with the copy bias as served, opens an `open_tickets`
# dialog it never draws: a button opens it, and the tree ends without it. Picked for what the
# served ui adapter writes; a new adapter may need another.
OPENS_A_DIALOG = (
    "A support team dashboard with open tickets, median first response time, and customer "
    "satisfaction. Add a date-range select (Today, This week, This month) that changes the "
    "numbers shown."
)


def test_a_dialog_the_head_opens_but_never_draws_is_drawn_by_the_middle_stage(
    engine: VllmEngine, caplog: pytest.LogCaptureFixture
) -> None:
    served = EngineSettings.from_env()
    engine.settings = replace(
        engine.settings,
        staged_data=True,
        copy_bias=served.copy_bias,
        copy_bias_repeats=served.copy_bias_repeats,
    )
    try:
        request = request_for(
            request_id=str(uuid.uuid4()), expert="ui", prompt=OPENS_A_DIALOG, max_tokens=700
        )
        with caplog.at_level(logging.INFO, logger="inference.serving.staged_decode"):
            deltas = list(engine.stream(request))
    finally:
        engine.settings = replace(engine.settings, copy_bias=0.0)
    # The stage ran (so the prompt still exercises it), and the spec it ends is valid.
    assert any("never draws: dialog open_tickets" in r.getMessage() for r in caplog.records), (
        caplog.text
    )
    assert deltas[-1].finish_reason == "stop"
    spec = json.loads("".join(d.text for d in deltas))
    assert validate(spec) == [], spec
    dialogs = [n for n in spec["root"]["c"] if n.get("t") == "dialog"]
    assert [d["bind"] for d in dialogs] == ["open_tickets"] and dialogs[0]["c"], dialogs


def test_a_spec_cut_at_the_token_limit_is_closed_into_a_valid_one(
    engine: VllmEngine, caplog: pytest.LogCaptureFixture
) -> None:
    """A recipe search under a 120-token limit: its head is cut, closed by its grammar, the tail
    runs on the tokens left and is closed in turn; the spec validates, and the generation says
    it was cut."""
    engine.settings = replace(engine.settings, staged_data=True)
    request = request_for(
        request_id=str(uuid.uuid4()), expert="ui", prompt=RECIPE_SEARCH, max_tokens=120
    )
    with caplog.at_level(logging.INFO, logger="inference.serving.staged_decode"):
        deltas = list(engine.stream(request))
    assert any("the head, cut at the token limit" in r.getMessage() for r in caplog.records)
    assert deltas[-1].finish_reason == "length"
    spec = json.loads("".join(d.text for d in deltas))
    assert validate(spec) == [], spec


# A head whose buttons switch to tabs it never draws, as a CPU-trained adapter wrote quiz-02.
# The served adapter does not write one on the dev set, so the head's grammar is made to admit
# only this head: the middle stage and the tail after it are then the real engine's.
SWITCHES_TO_TABS: dict[str, Any] = {
    "title": "Math quiz",
    "root": {
        "t": "page",
        "c": [
            {"t": "heading", "text": "Math quiz"},
            {"t": "text", "text": "7 x 8 = ?"},
            {
                "t": "button",
                "label": "Go to Score",
                "on": {"do": "tab", "path": "view", "value": "Score"},
            },
            {
                "t": "button",
                "label": "Back",
                "on": {"do": "tab", "path": "view", "value": "Question"},
            },
        ],
    },
}


def forced_head(
    engine: VllmEngine,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
    head: dict[str, Any],
    prompt: str,
    request: GenerationRequest | None = None,
    head_grammar: dict[str, Any] | None = None,
) -> list[Delta]:
    """A staged generation of `prompt` (or `request`) whose head's grammar admits only `head`
    (or `head_grammar`'s heads): the stages after it are the real engine's."""
    grammar = head_grammar or {"const": head}
    monkeypatch.setattr(staged_decode, "head_schema", lambda _: grammar)
    engine.settings = replace(engine.settings, staged_data=True)
    if request is None:
        request = request_for(
            request_id=str(uuid.uuid4()), expert="ui", prompt=prompt, max_tokens=700
        )
    with caplog.at_level(logging.INFO, logger="inference.serving.staged_decode"):
        return list(engine.stream(request))


def test_tabs_the_head_switches_to_but_never_draws_are_drawn_by_the_middle_stage(
    engine: VllmEngine, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    deltas = forced_head(engine, monkeypatch, caplog, SWITCHES_TO_TABS, "quick math quiz")
    assert any("never draws: tabs view" in r.getMessage() for r in caplog.records), caplog.text
    assert deltas[-1].finish_reason == "stop"
    spec = json.loads("".join(d.text for d in deltas))
    assert spec["root"]["c"][:4] == SWITCHES_TO_TABS["root"]["c"]
    (tabs,) = spec["root"]["c"][4:]
    assert (tabs["t"], tabs["bind"], tabs["tabs"]) == ("tabs", "view", ["Score", "Question"])
    assert len(tabs["c"]) == 2
    assert validate(spec) == [], spec


# A head with a section written twice, as the served adapter wrote the README's sales dashboard
# ("Revenue $1.11M" twice). The head's grammar admits only this head, so the copy is certain;
# the tail after it is the real engine's, on a prompt respelled without the copy.
REVENUE = {"t": "card", "c": [{"t": "stat", "label": "Revenue", "value": "$1.11M"}]}
COPIED_CARD: dict[str, Any] = {
    "title": "Sales dashboard",
    "root": {
        "t": "page",
        "c": [REVENUE, REVENUE, {"t": "input", "label": "Customer", "bind": "customer"}],
    },
}


def test_a_section_the_head_writes_twice_is_shown_once(
    engine: VllmEngine, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    deltas = forced_head(engine, monkeypatch, caplog, COPIED_CARD, "a sales dashboard")
    assert any("hid it and wrote on" in r.getMessage() for r in caplog.records), caplog.text
    assert deltas[-1].finish_reason == "stop"
    text = "".join(d.text for d in deltas)
    assert text.count('"Revenue"') == 1  # never streamed, not only left out at the end
    spec = json.loads(text)
    assert spec["root"]["c"] == [REVENUE, COPIED_CARD["root"]["c"][2]]
    assert "customer" in spec["state"]
    assert validate(spec) == [], spec
    # The copy's tokens were written: the usage counts them, as the head wrote them (all but
    # its last token, which the tail spells again).
    head = json.dumps(COPIED_CARD, separators=(",", ":"))
    assert deltas[-1].tokens >= len(engine._tokenizer.encode(head, add_special_tokens=False)) - 1


def test_a_refinement_keeps_a_section_the_version_it_refines_holds_twice(
    engine: VllmEngine, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The designer duplicated the card by hand; refining another part keeps both."""
    version = {**COPIED_CARD, "state": {"customer": ""}}
    request = refine_request_for(
        request_id=str(uuid.uuid4()),
        expert="ui",
        first_prompt="a sales dashboard",
        spec=version,
        instruction="rename Customer to Client",
        max_tokens=700,
        max_spec_chars=20_000,
    )
    deltas = forced_head(engine, monkeypatch, caplog, COPIED_CARD, "", request)
    assert not any("hid it" in r.getMessage() for r in caplog.records), caplog.text
    spec = json.loads("".join(d.text for d in deltas))
    assert spec["root"]["c"] == COPIED_CARD["root"]["c"]


# A dev-set receipt's head (invoice-04): its tree binds `coupon` last. After `"coupon":"` the
# model's best token is `","`, an empty value and then another key, which the tail's grammar
# forbids; its best allowed token was `','`, and the value ran on as junk to its length limit.
ENDS_ON_A_TEXT_FIELD = json.loads(
    '{"title":"Receipt for coffee shop purchase","root":{"t":"page","c":[{"t":"heading",'
    '"text":"Receipt for coffee shop purchase"},{"t":"text","text":"Everything about your '
    'products."},{"t":"card","c":[{"t":"grid","cols":2,"c":[{"t":"stat","label":"Coupons",'
    '"value":"12","delta":"+14%"},{"t":"stat","label":"Purchases","value":"488","delta":'
    '"+12%"}]}]},{"t":"form","submit":"Continue","on":{"do":"set","path":"saved","value":true},'
    '"c":[{"t":"input","label":"Purchase date","bind":"purchase_date","kind":"date"},{"t":'
    '"input","label":"Coupon","bind":"coupon","kind":"text","req":true}]},{"t":"alert","if":'
    '"saved","tone":"success","text":"Thanks, we got it!"}]}}'
)


def test_a_state_string_the_model_meant_to_end_is_ended(
    engine: VllmEngine, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """inference/serving/closing_quote.py: the value ends where the model's `","` began."""
    prompt = (
        "A receipt for a coffee shop purchase: 2 flat whites, 1 almond croissant, total, "
        "payment by card ending 4821"
    )
    deltas = forced_head(engine, monkeypatch, caplog, ENDS_ON_A_TEXT_FIELD, prompt)
    spec = json.loads("".join(d.text for d in deltas))
    assert spec["state"]["coupon"] == "", spec["state"]
    assert validate(spec) == [], spec


FREE = object()  # where `pinned` leaves the model to write


def pinned(value: object, free: dict[str, Any]) -> dict[str, Any]:
    """A JSON schema that admits `value` alone, in its key order, but where it holds FREE:
    there, `free`'s values."""
    if value is FREE:
        return free
    if isinstance(value, dict):
        properties = {key: pinned(item, free) for key, item in value.items()}
        return {"properties": properties, "required": list(value), "additionalProperties": False}
    if isinstance(value, list):
        items = [pinned(item, free) for item in value]
        return {"prefixItems": items, "items": False, "minItems": len(items)}
    return {"const": value}


# A markdown text begun as a dev-set spec's began before its word filled the text to its limit
# (settings-01 in batched runs: "**Weekly summary** simple simple simple ..."); the model writes
# on from the second "simple".
WORD_TWICE = {
    "title": "Running app",
    "root": {
        "t": "page",
        "c": [{"t": "heading", "text": "Running app"}, {"t": "markdown", "md": FREE}],
    },
}


def test_a_word_written_twice_is_not_written_a_third_time(
    engine: VllmEngine, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """inference/serving/word_loop.py: without it the model writes " simple" to the limit
    (checked), with the copy bias the product serves with."""
    served = EngineSettings.from_env()
    monkeypatch.setattr(engine, "settings", replace(engine.settings, copy_bias=served.copy_bias))
    begun = {"type": "string", "pattern": r"\*\*Weekly summary\*\* simple simple[a-zA-Z ,.]*"}
    prompt = (
        "Notification preferences for a running app. Switches for: weekly summary, new "
        "follower, race reminders, personal best alerts. A Save changes button."
    )
    head = pinned(WORD_TWICE, begun)
    deltas = forced_head(engine, monkeypatch, caplog, WORD_TWICE, prompt, head_grammar=head)
    assert deltas[-1].finish_reason == "stop"
    md = json.loads("".join(d.text for d in deltas))["root"]["c"][1]["md"]
    assert md.startswith("**Weekly summary** simple simple")
    assert not re.search(r"\b(\w+)\s+\1\s+\1\b", md, re.IGNORECASE), md


def ended_by_the_real_grammar(monkeypatch: pytest.MonkeyPatch) -> None:
    """A forced head (`forced_head`) is closed where a rule ends it by the real head grammar's
    shortest ending, not its forced one's (which admits no ending but the rest of the head)."""
    real = head_schema(ui4a.json_schema(queries=False))

    def closed(text: str, **grammar: Any) -> str | None:
        if "json_schema" in grammar:
            return stage_closing.closing(text, json_schema=real)
        return stage_closing.closing(text, **grammar)

    monkeypatch.setattr(staged_decode, "closing", closed)


def step(number: int) -> dict[str, Any]:
    """A wizard's card: the same three strings each time, a number changed."""
    return {
        "t": "card",
        "title": "Thermostat setup",
        "c": [
            {"t": "stat", "label": "Room", "value": str(number)},
            {"t": "stat", "label": "Target temperature", "value": str(18 + number)},
        ],
    }


def test_a_head_that_loops_with_small_changes_ends_whole(
    engine: VllmEngine, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A head that writes a wizard's card again and again with other numbers, as wizard-03's did
    under an earlier adapter (cut at the token limit in 29 of 32 runs kept) and music-player-01's
    does in the served adapter's bench runs: the head ends after the second card with nothing new
    to show (inference/serving/repeat_watch.py), and the spec ends whole and valid."""
    looping = {
        "title": "Thermostat",
        "root": {"t": "page", "c": [step(1), step(2), step(3), REVENUE]},
    }
    ended_by_the_real_grammar(monkeypatch)
    deltas = forced_head(engine, monkeypatch, caplog, looping, "a thermostat setup wizard")
    assert "second child with nothing new" in caplog.text, caplog.text
    assert deltas[-1].finish_reason == "stop"
    spec = json.loads("".join(d.text for d in deltas))
    assert spec["root"]["c"] == [step(1), step(2), step(3)]
    assert validate(spec) == [], spec


def test_a_head_in_a_loop_of_copies_ends_whole(
    engine: VllmEngine, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A head that writes a card again and again, verbatim, each copy hidden, as survey-04's did
    to the token limit in three bench runs of three under the served adapter before the rule
    (`bench/RESULTS.md`, 2026-12-06, 19:05): the copy written where two were hidden ends the
    head, and the spec ends whole, with the card once."""
    looping = {
        **COPIED_CARD,
        "root": {"t": "page", "c": [REVENUE] * 4 + COPIED_CARD["root"]["c"][2:]},
    }
    ended_by_the_real_grammar(monkeypatch)
    deltas = forced_head(engine, monkeypatch, caplog, looping, "a sales dashboard")
    assert "in a loop of copies; ended it" in caplog.text, caplog.text
    assert deltas[-1].finish_reason == "stop"
    text = "".join(d.text for d in deltas)
    assert text.count('"Revenue"') == 1
    spec = json.loads(text)
    assert spec["root"]["c"] == [REVENUE]
    assert validate(spec) == [], spec


# Tabs drawn, then a button that switches them, its value the model's to write: round 3 wrote
# profile-05's "Go to Adoption" switching to "Ad Adoption", where the tabs were "Adopt to adopt"
# and "Adoption" (bench/RESULTS.md, 2026-12-06, 19:05).
SWITCHES_DRAWN_TABS = {
    "title": "Dog adoption",
    "root": {
        "t": "page",
        "c": [
            {
                "t": "tabs",
                "bind": "tab",
                "tabs": ["About Biscuit", "Apply"],
                "c": [
                    {"t": "text", "text": "Biscuit is 3 years old, a beagle mix."},
                    {"t": "text", "text": "Tell us about your home."},
                ],
            },
            {
                "t": "button",
                "label": "Go to the adoption form",
                "on": {"do": "tab", "path": "tab", "value": FREE},
            },
        ],
    },
}


def test_a_switch_at_drawn_tabs_names_one_of_their_labels(
    engine: VllmEngine, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """inference/serving/tab_switch.py: without it the model writes "ApplY", a label
    the tabs lack (checked), and the spec is invalid."""
    prompt = (
        "profile for a dog adoption site: the dog is Biscuit, 3 years, beagle mix, with a button "
        "that goes to the adoption form"
    )
    head = pinned(SWITCHES_DRAWN_TABS, {"type": "string", "maxLength": 40})
    deltas = forced_head(
        engine, monkeypatch, caplog, SWITCHES_DRAWN_TABS, prompt, head_grammar=head
    )
    assert deltas[-1].finish_reason == "stop"
    spec = json.loads("".join(d.text for d in deltas))
    assert spec["root"]["c"][1]["on"]["value"] in ("About Biscuit", "Apply"), spec
    assert validate(spec) == [], spec


# A head with seven state keys and a table of seven columns, as the dev set's search-02 had
# when the tail was cut at the token limit mid-record (bench/RESULTS.md, 2026-12-07).
WIDE = ["flight", "departure_date", "passengers", "return_date", "price", "duration", "seats"]
WIDE_HEAD = {
    "title": "Flights",
    "root": {
        "t": "page",
        "c": [
            *({"t": "input", "label": key.replace("_", " ").title(), "bind": key} for key in WIDE),
            {"t": "table", "data": "flights", "cols": WIDE, "title": "All flights"},
        ],
    },
}


def test_a_tail_short_of_tokens_writes_the_records_that_fit(
    engine: VllmEngine, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """inference/serving/tail_budget.py: 250 tokens after the head fit two records."""
    head_text = json.dumps(WIDE_HEAD, separators=(",", ":"))
    head_tokens = len(engine._tokenizer.encode(head_text, add_special_tokens=False))
    request = request_for(
        request_id=str(uuid.uuid4()),
        expert="ui",
        prompt="flight search with a results table",
        max_tokens=head_tokens + 250,
    )
    deltas = forced_head(engine, monkeypatch, caplog, WIDE_HEAD, "", request=request)
    assert deltas[-1].finish_reason == "stop"
    spec = json.loads("".join(d.text for d in deltas))
    assert 1 <= len(spec["data"]["flights"]) <= records_that_fit(260, WIDE_HEAD), spec["data"]
    assert validate(spec) == [], spec
