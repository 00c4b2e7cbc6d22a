"""Nested lists multiply: a list draws its children once per row plus once for its template.
Rendering counts what a spec would draw and stops at a budget with a notice, in bounded time;
validation reports the same spec as too large."""

from __future__ import annotations

import json
import time

import pytest

from ui4a import render, render_body, render_document, validate
from ui4a.budget import MAX_RENDERED_BYTES, MAX_RENDERED_NODES, rendered_nodes


def nested_lists(depth: int, rows: int) -> dict[str, object]:
    node: dict[str, object] = {"t": "text", "text": "{.a} and some words to make it longer"}
    for _ in range(depth):
        node = {"t": "list", "data": "d", "c": [node, {"t": "badge", "text": "item"}]}
    return {
        "title": "Bomb",
        "root": {"t": "page", "c": [node]},
        "data": {"d": [{"a": i, "b": "x" * 30, "c": "y" * 30} for i in range(rows)]},
    }


def test_a_nested_list_bomb_renders_a_notice_in_bounded_time() -> None:
    bomb = nested_lists(depth=6, rows=60)
    assert 5_000 < len(json.dumps(bomb)) < 7_000  # fits the API's token cap
    assert rendered_nodes(bomb) > 10**10  # ~50 MB of HTML and ~30 s of CPU before the budget
    started = time.process_time()
    html = render_body(bomb)
    document = render_document(bomb)
    assert time.process_time() - started < 0.5
    assert 'data-ui4a-problem="too_large"' in html and "too large to show" in html
    assert len(html) < 10_000 and "too large to show" in document
    problems = [p for p in validate(bomb) if p.code == "too_large"]
    assert [p.path for p in problems] == ["/root"] and "nested lists" in problems[0].message


def test_the_renderer_stops_at_its_byte_budget_whatever_the_count_misses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A query-sized list with long markdown per item: few nodes, many bytes. The budget is
    # scaled down a tenfold, so the test draws 400 kB rather than the real 4 MB.
    budget = MAX_RENDERED_BYTES // 10
    monkeypatch.setattr(render, "MAX_RENDERED_BYTES", budget)
    rows = [{"a": i} for i in range(1000)]
    item = [{"t": "markdown", "md": "word " * 119} for _ in range(8)]
    spec = {
        "root": {"t": "page", "c": [{"t": "list", "data": "d", "c": item}]},
        "data": {"d": rows},
    }
    assert rendered_nodes(spec) < MAX_RENDERED_NODES
    html = render_body(spec)
    assert "too large to show" in html and f"more than {budget} bytes" in html
    assert len(html.split("<script")[0]) < 1_000  # the notice, and the datasets as JSON


def test_ordinary_nested_lists_still_render() -> None:
    spec = nested_lists(depth=2, rows=5)
    html = render_body(spec)
    assert "too large" not in html and html.count('class="u4-item"') == 5 + 5 * 6
    assert not [p for p in validate(spec) if p.code == "too_large"]
