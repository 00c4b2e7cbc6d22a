"""The composed ui dataset: diversity floors, held-out kinds kept out, and prompts that name only
what their spec holds."""

from __future__ import annotations

import json
import re
from functools import cache
from random import Random

import ui4a
from inference.offline.datasets import ui
from inference.offline.datasets.build import generated
from inference.offline.datasets.common import Record, compact
from inference.offline.datasets.compose import (
    _articles,
    compose,
    refine,
    rename_column,
    write_prompt,
)
from inference.offline.datasets.diversity import diversity, labelled, layout
from inference.offline.datasets.sections import listing
from inference.offline.datasets.vocab import DOMAINS, HELD_OUT_WORDS


@cache
def composed() -> list[Record]:
    return ui.composed(Random(0), 3000, 0.3)


def _words(text: str) -> str:
    return " " + " ".join(re.sub(r"[^a-z0-9]+", " ", text.lower()).split()) + " "


def test_it_reaches_the_diversity_floors() -> None:
    numbers = diversity(list(generated("ui", 0)))
    assert numbers["distinct_layouts"] >= 2000
    assert numbers["distinct_component_label_pairs"] >= 1000
    assert numbers["kinds"] >= 40
    assert numbers["answer_chars"]["max"] < 4000  # about 1,500 tokens: fits a 2k sequence


def test_it_keeps_the_held_out_kinds_out() -> None:
    kinds = {r["kind"].split("/")[0] for r in generated("ui", 0)}
    for word in HELD_OUT_WORDS:
        assert not [k for k in kinds if word.replace(" ", "") in k], word
    for domain in DOMAINS:
        for phrase in (domain.kind, *domain.names, domain.items, *domain.tabs, *domain.words):
            assert not [w for w in HELD_OUT_WORDS if f" {w} " in _words(phrase)], phrase
    for rec in composed():
        for message in rec["messages"]:
            if message["role"] == "user":
                text = _words(message["content"])
                assert not [w for w in HELD_OUT_WORDS if f" {w} " in text], message["content"]


def test_every_spec_is_valid_and_compact() -> None:
    for rec in composed():
        for message in rec["messages"][1::2]:
            spec = json.loads(message["content"])
            assert ui4a.validate(spec) == []
            assert compact(spec) == message["content"]


def test_quoted_names_and_listed_columns_in_a_prompt_are_in_its_spec() -> None:
    # The details a prompt is written from (typos are noise laid over them afterwards).
    rng = Random(2)
    checked = 0
    for _ in range(1500):
        screen = compose(rng)
        answer = compact(screen.spec).lower()
        for detail in screen.details:
            for quoted in re.findall(r"(?<![A-Za-z])'([^']{3,})'", detail):
                assert quoted.lower() in answer, (quoted, detail)
                checked += 1
            if "with columns " in detail:
                cols = _tables(screen.spec)[0]["cols"]
                labels = [c.replace("_", " ").capitalize() for c in cols]
                assert detail.endswith(f"with columns {listing(labels)}"), (cols, detail)
                checked += 1
    assert checked > 1000


def test_a_targeted_rename_changes_only_that_column() -> None:
    rng = Random(3)
    for _ in range(200):
        screen = compose(rng)
        edit = rename_column(rng, screen.spec, screen.domain)
        if edit is None:
            continue
        asks, spec = edit
        before = _tables(screen.spec)[0]["cols"]
        after = _tables(spec)[0]["cols"]
        changed = [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        assert len(changed) == 1
        label = after[changed[0]].split(":")[1]
        assert all(label in ask for ask in asks)
        assert ui4a.validate(spec) == []
        return
    raise AssertionError("no screen with a table in 200 draws")


def test_refinements_always_apply_and_write_a_different_spec() -> None:
    rng = Random(5)
    for _ in range(300):
        screen = compose(rng)
        prompt, level = write_prompt(rng, screen)
        assert prompt and level in ("terse", "brief", "full", "list")
        asks, spec = refine(rng, screen)
        assert spec != screen.spec and asks


def test_layouts_and_labels_are_read_from_the_tree() -> None:
    tree = {
        "t": "page",
        "c": [
            {"t": "heading", "text": "Hi"},
            {"t": "tabs", "bind": "tab", "tabs": ["A", "B"], "c": [{"t": "text", "text": "a"}]},
            {"t": "form", "c": [{"t": "input", "label": "Name", "bind": "name"}]},
        ],
    }
    assert layout(tree) == "page(heading,tabs(text),form(input))"
    assert sorted(labelled(tree)) == [("input", "Name"), ("tab", "A"), ("tab", "B")]


def _tables(spec: dict[str, object]) -> list[dict[str, list[str]]]:
    from inference.offline.datasets.screen import find_all

    return find_all(spec["root"], "table")  # type: ignore[arg-type]


def test_it_fixes_articles_but_leaves_names_alone() -> None:
    assert (
        _articles("a Email field and a attendees count") == "an Email field and an attendees count"
    )
    assert (
        _articles("Freezer A already, Zone A and a user") == "Freezer A already, Zone A and a user"
    )
