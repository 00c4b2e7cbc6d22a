"""The experts' datasets: size, kinds, validity (ui4a and the JSON Schema), determinism, split."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]

import ui4a
from inference.offline.datasets import agent, chat, coding, ui
from inference.offline.datasets.build import build_all, generated, read_split
from inference.offline.datasets.common import Record, normalize
from inference.offline.datasets.vocab import DOMAINS
from inference.serving.repeat_watch import RepeatWatch


def ui_records() -> list[Record]:
    return list(generated("ui", 0))


def test_it_has_thousands_of_ui_pairs_across_domains_and_builders_with_refinements() -> None:
    records = ui_records()
    kinds = Counter(r["kind"].split("/")[0] for r in records)
    assert len(records) >= 6000
    domains = {d.kind for d in DOMAINS}
    assert set(kinds) == set(ui.KINDS) | domains | {"data-dashboard", "mixed"}
    assert len(domains) >= 30
    assert kinds["data-dashboard"] >= 1000 and kinds["mixed"] >= 1000
    assert min(kinds[d] for d in domains) >= 100 and min(kinds[k] for k in ui.KINDS) >= 20
    refinements = [r for r in records if r["kind"].endswith("/refine")]
    assert len(refinements) >= 1500
    assert any("bar chart" in r["messages"][2]["content"] for r in refinements)


def test_it_varies_the_phrasing() -> None:
    prompts = [r["messages"][0]["content"] for r in ui_records()]
    assert any(p.startswith("hey!") for p in prompts)  # chatty
    assert any(" with " in p and p.endswith(".") for p in prompts)  # detailed
    assert sum(len(p.split()) <= 4 for p in prompts) >= 100  # terse
    words = {w for p in prompts for w in normalize(p).split()}
    assert {"ticekts", "dashbaord"} & words or len(words) > 1500  # typos add unseen words


def test_it_writes_only_specs_that_pass_ui4a_and_the_decoding_schema() -> None:
    # ui4a checks every spec; jsonschema walks the layered anyOf schema slowly (about 60 ms a
    # spec), so it checks every 25th, which still covers each kind and refinement.
    validator = jsonschema.Draft202012Validator(ui4a.json_schema())
    for i, rec in enumerate(ui_records()):
        for message in rec["messages"][1::2]:
            spec = json.loads(message["content"])
            assert ui4a.validate(spec) == [], rec["id"]
            if i % 25 == 0:
                validator.validate(spec)
            assert json.dumps(spec, separators=(",", ":"), ensure_ascii=False) == message["content"]


def test_no_spec_writes_an_item_again_right_after_itself() -> None:
    """The decoder stops a tail at such a copy (inference/serving/repeat_watch.py), and an expert
    copies what its data shows: two tabs once showed the same stat, in 124 specs."""
    for rec in ui_records():
        for message in rec["messages"][1::2]:
            assert RepeatWatch().feed(message["content"]) == [], rec["id"]


def test_it_is_deterministic_for_a_seed() -> None:
    assert ui.generate(0) == ui_records()
    assert ui.generate(1) != ui_records()
    assert chat.generate(0) == chat.generate(0)


def test_it_never_shows_an_eval_prompt_in_training() -> None:
    for records in (ui_records(), chat.generate(0), coding.generate(0), agent.generate(0)):
        train = [r for r in records if r["split"] == "train"]
        evals = [r for r in records if r["split"] == "eval"]
        assert len(evals) >= len(records) // 20
        seen = {
            normalize(m["content"]) for r in train for m in r["messages"] if m["role"] == "user"
        }
        for rec in evals:
            first = next(m["content"] for m in rec["messages"] if m["role"] == "user")
            assert normalize(first) not in seen


def test_the_other_experts_get_a_few_hundred_real_examples() -> None:
    assert len(chat.generate(0)) >= 300
    plans = [r for r in agent.generate(0) if not r["kind"].startswith("tool_")]
    assert len(plans) >= 200
    for rec in plans:
        for step in json.loads(rec["messages"][1]["content"])["steps"]:
            assert tuple(step["args"]) == agent.TOOLS[step["tool"]]
    tasks = [r for r in coding.generate(0) if not r["kind"].startswith("tool_")]
    assert len(tasks) >= 200
    for rec in tasks:
        code = rec["messages"][1]["content"].removeprefix("```python\n").removesuffix("```")
        namespace: dict[str, object] = {}
        exec(compile(code, rec["id"], "exec"), namespace)  # our own template code, not model output
        tests = [f for name, f in namespace.items() if name.startswith("test_")]
        assert len(tests) == 1
        tests[0]()  # type: ignore[operator]


def test_it_builds_jsonl_files_with_a_manifest(tmp_path: Path) -> None:
    out = tmp_path / "datasets"
    manifest = build_all(out, log=lambda _: None)
    on_disk = json.loads((out / "manifest.json").read_text())
    assert on_disk == manifest
    ui_entry = manifest["experts"]["ui"]
    assert ui_entry["train"]["count"] == len(read_split("ui", "train", out))
    assert ui_entry["train"]["count"] + ui_entry["eval"]["count"] >= 6000
    assert ui_entry["diversity"]["distinct_layouts"] >= 2000
    assert set(manifest["experts"]) == {"ui", "chat", "coding", "agent"}
