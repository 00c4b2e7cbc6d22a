"""Data-Bench's prompts, files and judge: written apart from the ui dataset generator, and a
judge that passes exactly the right numbers."""

from __future__ import annotations

from typing import Any

import pytest

from bench.data_bench import check, expect, files, prompts
from bench.overlap import JACCARD_LIMIT, content, jaccard, runs, ui_training_prompts
from inference.offline.datasets import data_dashboards


def test_every_prompt_loads_with_its_file() -> None:
    loaded = prompts.load()
    assert len(loaded) >= 10
    assert {p.asked_file for p in loaded} == set(files.FILES)


def test_no_prompt_is_close_to_a_ui_training_prompt() -> None:
    train = ui_training_prompts()
    train_runs = {run for prompt in train for run in runs(prompt)}
    train_sets = [content(p) for p in train]
    for item in prompts.load():
        assert not runs(item.prompt) & train_runs, item.id
        mine = content(item.prompt)
        assert max(jaccard(mine, theirs) for theirs in train_sets) < JACCARD_LIMIT, item.id


def test_files_share_no_dataset_or_column_name_with_the_generator() -> None:
    generated = set()
    for domain in data_dashboards.DOMAINS:
        generated |= set(domain.datasets) | set(domain.dates)
        generated |= {n for c in domain.categories for n in c.names}
        generated |= {n for m in domain.measures for n in m.names}
        generated |= {name for name, _ in domain.texts}
    for name in files.FILES:
        rows = expect.read_rows(name, files.file_bytes(name))
        used = {name.rsplit(".", 1)[0], *rows[0]}
        assert not used & generated, (name, used & generated)


ROWS = [
    {"day": "2025-01-03", "shop": "A", "amount": "10"},
    {"day": "2025-01-20", "shop": "B", "amount": "5.5"},
    {"day": "2025-02-01", "shop": "A", "amount": "2"},
]


def spec_with(rows: list[Any], node: dict[str, Any]) -> dict[str, Any]:
    return {"root": {"t": "page", "c": [node]}, "data": {"d": rows}}


def test_expected_series_buckets_and_aggregates() -> None:
    assert expect.series(ROWS, {"group": "day:month", "agg": "sum", "of": "amount"}) == {
        "2025-01": 15.5,
        "2025-02": 2.0,
    }
    assert expect.series(ROWS, {"group": "shop", "agg": "count"}) == {"A": 2, "B": 1}
    assert expect.series(ROWS, {"group": "day:week", "agg": "count"}) == {
        "2024-12-30": 1,
        "2025-01-20": 1,
        "2025-01-27": 1,
    }
    top = expect.series(ROWS, {"group": "shop", "agg": "sum", "of": "amount", "limit": 1})
    assert top == {"A": 12.0}


@pytest.mark.parametrize(
    ("points", "meets"),
    [
        ([{"m": "2025-01", "v": 15.5}, {"m": "2025-02", "v": 2}], True),
        ([{"m": "2025-02", "v": 2}, {"m": "2025-01", "v": 15.5}], True),  # order is the chart's
        ([{"m": "2025-01", "v": 15.0}, {"m": "2025-02", "v": 2}], False),
        ([{"m": "2025-01", "v": 15.5}], False),
    ],
)
def test_a_chart_meets_only_the_right_numbers(points: list[dict[str, object]], meets: bool) -> None:
    node = {"t": "chart", "title": "t", "data": "d", "x": "m", "y": ["v"]}
    wanted = {"chart": {"group": "day:month", "agg": "sum", "of": "amount"}}
    assert check.judge(spec_with(points, node), [wanted], ROWS) == [meets]


def test_a_table_meets_only_with_the_newest_rows() -> None:
    node = {"t": "table", "data": "d"}
    wanted = {"table": {"latest": 2, "by": "day"}}
    newest = [{"day": "2025-02-01"}, {"day": "2025-01-20"}]
    assert check.judge(spec_with(newest, node), [wanted], ROWS) == [True]
    assert check.judge(spec_with(newest[:1], node), [wanted], ROWS) == [False]
    assert check.judge(None, [wanted], ROWS) == [False]


def test_a_query_the_files_cannot_answer_is_counted_as_such() -> None:
    from bench.data_bench.__main__ import judged
    from bench.ui4a_bench.generate import Generated

    item = next(p for p in prompts.load() if p.id == "roastery-03")
    chart = {"t": "chart", "title": "Bags", "data": "weekly", "x": "sold_on", "y": ["bags"]}
    spec = {
        "root": {"t": "page", "c": [chart]},
        "data": {
            "weekly": {"from": "roastery_orders", "group": "sold_on:week", "agg": {"bags": "sum"}},
            "made_up": {"from": "roastery_orders", "group": "blend", "agg": {"x": "sum:grams"}},
            "inline": [{"a": 1}],
        },
    }
    row = judged(Generated("roastery-03", "retrieval", spec=spec), item)
    assert row["verdicts"] == [True]
    assert row["queries"] == 2
    assert row["queries_with_problems"] == ["made_up"]
