"""UI4A-Bench's dev set: big enough, spread over every screen kind, kept out of the ui expert's
training and eval data, and every requirement in it readable."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bench.ui4a_bench import devset
from bench.ui4a_bench.requirements import BadRequirement, parse
from inference.offline.datasets import ui
from inference.offline.datasets.common import normalize


def test_it_has_at_least_80_prompts_over_all_13_screen_kinds() -> None:
    prompts = devset.load()
    kinds = Counter(p.kind for p in prompts)
    assert len(prompts) >= 80
    assert set(kinds) == set(ui.KINDS)
    assert min(kinds.values()) >= 6
    assert len({p.id for p in prompts}) == len(prompts)
    assert all(p.requires for p in prompts)


def test_no_dev_prompt_appears_in_the_ui_datasets_train_or_eval_prompts() -> None:
    records = ui.generate(0)
    seen = {normalize(m["content"]) for r in records for m in r["messages"] if m["role"] == "user"}
    assert {r["split"] for r in records} == {"train", "eval"}
    leaked = [p.prompt for p in devset.load() if normalize(p.prompt) in seen]
    assert leaked == []


def test_every_requirement_in_the_dev_set_parses() -> None:
    for line in devset.DEVSET.read_text().splitlines():
        for source in json.loads(line)["requires"]:
            requirement = parse(source)
            assert requirement.kinds and requirement.at_least >= 1, source


def test_it_reads_roles_names_counts_and_columns() -> None:
    button = parse("button /add to cart/ >=3")
    assert button.kinds == ("button",) and button.at_least == 3
    assert button.name is not None and button.name.search("Add To Cart")
    either = parse("switch|checkbox =2")
    assert either.kinds == ("switch", "checkbox") and either.exactly and either.name is None
    assert parse("table cols>=4").cols == 4
    assert parse("chart /revenue/").kinds == ("chart",)


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("buton /sign up/", "unknown role 'buton'"),
        ("button sign up", "cannot read requirement"),
        ("text", "'text' needs a /regex/"),
        ("button cols>=3", "only a table takes cols>=N"),
        ("textbox /(/", "bad regex"),
        ("text|button /x/", "'text' stands alone"),
    ],
)
def test_a_bad_requirement_gets_a_clear_error(line: str, says: str) -> None:
    with pytest.raises(BadRequirement, match=says.replace("(", r"\(").replace("|", r"\|")):
        parse(line)


def test_a_bad_dev_set_line_names_its_number(tmp_path: Path) -> None:
    path = tmp_path / "devset.jsonl"
    good = {"id": "a", "kind": "auth", "prompt": "a login", "requires": ["button"]}
    bad = {**good, "id": "b", "requires": ["nonsense here"]}
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(ValueError, match="line 2"):
        devset.load(path)
