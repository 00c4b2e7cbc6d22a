"""Screens whose lists are drawn across domains: valid, named in full by their prompts, held-out
kinds kept out, and added without changing the rest of the dataset."""

from __future__ import annotations

import json
import re
from functools import cache
from random import Random
from typing import Any

import ui4a
from inference.offline.datasets import ui
from inference.offline.datasets.common import Record
from inference.offline.datasets.compose import compose
from inference.offline.datasets.mixed_vocab import WORDS, mixed_domain
from inference.offline.datasets.sections import CHOICE_PHRASES, RADIO_PHRASES
from inference.offline.datasets.vocab import DOMAINS, HELD_OUT_WORDS


@cache
def mixed() -> list[Record]:
    return ui.composed(Random(0), 600, 0.3, mixed=True)


def _form_choices(node: dict[str, Any], in_form: bool = False) -> list[dict[str, Any]]:
    """The selects and radios inside forms (a wizard's are not named in its prompt)."""
    in_form = in_form or node.get("t") == "form"
    found = [node] if in_form and node.get("t") in ("select", "radio") else []
    for kid in node.get("c", []):
        found += _form_choices(kid, in_form)
    return found


def test_its_lists_are_not_the_domains_own() -> None:
    rng = Random(1)
    foreign = 0
    for _ in range(200):
        dom = mixed_domain(rng)
        home = next(d for d in DOMAINS if d.kind == dom.kind)
        own = {o for f in home.fields for o in f.options} | set(home.statuses) | set(home.tabs)
        listed = [o for f in dom.fields for o in f.options] + list(dom.statuses + dom.tabs)
        foreign += sum(word not in own for word in listed)
        assert set(listed) <= set(WORDS)
        assert len({f.key for f in dom.fields}) == len(dom.fields)
    # Drawn from 564 words, nearly every one is another domain's.
    assert foreign > 0.9 * 200 * 10


def test_every_spec_validates_and_its_kind_is_mixed() -> None:
    kinds = {r["kind"] for r in mixed()}
    assert kinds == {"mixed", "mixed/refine"}
    for rec in mixed():
        for message in rec["messages"][1::2]:
            assert ui4a.validate(json.loads(message["content"])) == []


FORM_DETAIL = r"(a form with|fields for|an? .* form asking)"


def test_a_prompt_names_every_option_of_the_form_it_asks_for() -> None:
    rng = Random(3)
    checked = 0
    for _ in range(400):
        screen = compose(rng, mixed_domain(rng))
        form = [d for d in screen.details if re.match(FORM_DETAIL, d)]
        for node in _form_choices(screen.spec["root"]):
            assert len(form) == 1, screen.details
            for option in node["opts"]:
                assert option in form[0], (option, form[0])
                checked += 1
    assert checked > 300


def test_it_phrases_option_lists_in_several_ways() -> None:
    prompts = " ".join(r["messages"][0]["content"] for r in mixed())
    for shape in ("with options ", "a choice of ", "pick one ", " radios: ", " as radio buttons ("):
        assert shape in prompts, shape
    assert len(CHOICE_PHRASES) + len(RADIO_PHRASES) >= 8


def test_it_keeps_the_held_out_kinds_out() -> None:
    for rec in mixed():
        for message in rec["messages"][::2]:
            text = " " + " ".join(re.sub(r"[^a-z0-9]+", " ", message["content"].lower()).split())
            assert not [w for w in HELD_OUT_WORDS if f" {w} " in text + " "], message["content"]


def test_adding_them_leaves_the_rest_of_the_dataset_as_it_was() -> None:
    small = {
        "composed_count": 40,
        "screens_per_kind": 1,
        "data_dashboards_count": 20,
        "named_per_kind": 0,
    }
    without = ui.generate(0, mixed_count=0, **small)
    with_them = ui.generate(0, mixed_count=30, **small)
    assert with_them[: len(without)] == without
    assert {r["kind"] for r in with_them[len(without) :]} <= {"mixed", "mixed/refine"}
