"""UI4A-Bench's dev set: big enough, spread over 25 screen kinds (12 held out of training), with
interaction scripts on many prompts, and every requirement and script step in it readable.
(Its distance from the training prompts is test_ui4a_devset_overlap.py's.)"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from bench.ui4a_bench import devset
from bench.ui4a_bench.requirements import BadRequirement, parse
from bench.ui4a_bench.scripts import BadStep, parse_script, parse_step, pick_option
from inference.offline.datasets.build import records_for


def test_it_has_150_prompts_over_25_kinds_with_scripts_on_at_least_60() -> None:
    prompts = devset.load()
    kinds = Counter(p.kind for p in prompts)
    assert len(prompts) >= 150 and len(kinds) >= 25
    assert min(kinds.values()) >= 5
    assert len({p.id for p in prompts}) == len(prompts)
    assert all(p.requires for p in prompts)
    assert sum(bool(p.script) for p in prompts) >= 60
    words = [len(p.prompt.split()) for p in prompts]
    assert min(words) <= 6 and max(words) >= 30  # short and long asks


def test_at_least_ten_kinds_are_held_out_and_no_training_record_has_one() -> None:
    kinds = {p.kind for p in devset.load()}
    assert len(set(devset.HELD_OUT) & kinds) >= 10
    trained = {r["kind"].split("/")[0] for s in ("train", "eval") for r in records_for("ui", s)}
    spelled = {k.replace("-", " ") for k in devset.HELD_OUT} | set(devset.HELD_OUT)
    assert trained & spelled == set()


def test_every_requirement_and_script_in_the_dev_set_parses() -> None:
    for line in devset.DEVSET.read_text().splitlines():
        row = json.loads(line)
        for source in row["requires"]:
            requirement = parse(source)
            assert requirement.kinds and requirement.at_least >= 1, source
        parse_script(row.get("script", []))


def test_it_reads_script_steps() -> None:
    fill = parse_step('fill textbox /task/ "Buy milk"')
    assert (fill.verb, fill.target.kinds, fill.value) == ("fill", ("textbox",), "Buy milk")
    assert fill.target.name is not None and fill.target.name.search("New task")
    see = parse_step("see listitem /milk/ =2")
    assert see.verb == "see" and see.target.exactly and see.target.at_least == 2
    assert parse_step("click text /shipping/").target.kinds == ("text",)


@pytest.mark.parametrize(
    ("lines", "says"),
    [
        (["press button /go/", "see text /x/"], "cannot read step"),
        (['click button /go/ "now"', "see text /x/"], "only they"),
        (["fill textbox /name/", "see text /x/"], "only they"),
        (["click button /go/ >=2", "see text /x/"], "no count"),
        (["click buton /go/", "see text /x/"], "unknown role"),
        (["click button /go/"], "what the user should see"),
        (["see text /x/"] * 11, "at most 10 steps"),
    ],
)
def test_a_bad_script_gets_a_clear_error(lines: list[str], says: str) -> None:
    with pytest.raises(BadStep, match=says):
        parse_script(lines)


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


def test_select_picks_the_asked_option_or_the_one_holding_it_as_a_word() -> None:
    assert pick_option(["Choose…", "EUR", "USD"], "eur") == "EUR"
    assert pick_option(["2 people", "4 people"], "4") == "4 people"
    assert pick_option(["14 days", "40 days"], "4") is None  # a digit inside a word is not it
    assert pick_option(["4 a week", "4 a month"], "4") is None  # two hold it: ambiguous
