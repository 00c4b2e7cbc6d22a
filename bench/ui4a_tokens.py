"""UI4A efficiency: tokens per spec with the default tokenizer, and server-side render time.

    .venv/bin/python bench/ui4a_tokens.py [--tokenizer var/models/smollm2-135m-instruct]

Prints one table: for each docs example and a typical dashboard, the tokens of the compact
spec (what the model writes), the ratio to the same spec pretty-printed, and the median time
of `render_document`; then the median render time of a 300-node spec (target: <= 10 ms).
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ui4a import render_body, render_document, validate  # noqa: E402
from ui4a.registry import components, example_path  # noqa: E402

DASHBOARD: dict[str, Any] = {
    "title": "Sales",
    "root": {
        "t": "page",
        "title": "Sales overview",
        "c": [
            {
                "t": "row",
                "c": [
                    {
                        "t": "select",
                        "label": "Region",
                        "bind": "region",
                        "opts": ["All", "EU", "US"],
                    },
                    {"t": "input", "label": "Search", "bind": "q", "kind": "search"},
                ],
            },
            {
                "t": "grid",
                "cols": 3,
                "c": [
                    {"t": "stat", "label": "Revenue", "value": "$48.2k", "delta": "+12%"},
                    {"t": "stat", "label": "Orders", "value": "1,284", "delta": "+4%"},
                    {
                        "t": "stat",
                        "label": "Refunds",
                        "value": "23",
                        "delta": "-8%",
                        "good": "down",
                    },
                ],
            },
            {
                "t": "chart",
                "kind": "line",
                "title": "Revenue by month",
                "data": "sales",
                "x": "month",
                "y": ["revenue"],
                "filter": ["region=region"],
            },
            {
                "t": "table",
                "data": "sales",
                "title": "Monthly sales",
                "cols": ["month", "region", "revenue"],
                "filter": ["region=region", "*~q"],
            },
        ],
    },
    "state": {"region": "All", "q": ""},
    "data": {
        "sales": [
            {"month": m, "region": r, "revenue": v}
            for m, r, v in [
                ("Jan", "EU", 120),
                ("Feb", "EU", 150),
                ("Mar", "US", 170),
                ("Apr", "US", 210),
                ("May", "EU", 190),
                ("Jun", "US", 240),
            ]
        ]
    },
}


def big_spec(nodes: int = 300) -> dict[str, Any]:
    """A page of cards of mixed leaves: `nodes` nodes in all (page and cards included)."""
    leaves = [
        {"t": "heading", "text": "Section {n}", "level": 2},
        {"t": "text", "text": "Some text about {n} things."},
        {"t": "input", "label": "Name", "bind": "name"},
        {"t": "checkbox", "label": "Agree", "bind": "ok"},
        {"t": "badge", "text": "New", "tone": "info"},
        {"t": "button", "label": "Go", "on": {"do": "increment", "path": "n"}},
        {"t": "stat", "label": "Users", "value": "{n}", "delta": "+3%"},
    ]
    cards, count = [], 1
    while count < nodes:
        kids = [leaves[(count + i) % len(leaves)] for i in range(min(7, nodes - count - 1))]
        cards.append({"t": "card", "title": "Card", "c": kids})
        count += 1 + len(kids)
    # Pages hold 8 children at most: nest cards in stacks of 8.
    stacks = [{"t": "stack", "c": cards[i : i + 7]} for i in range(0, len(cards), 7)]
    return {
        "root": {"t": "page", "c": stacks},
        "state": {"n": 3, "name": "", "ok": False},
    }


def count_nodes(node: dict[str, Any]) -> int:
    return 1 + sum(count_nodes(k) for k in node.get("c", []))


def median_ms(fn: Callable[[], object], runs: int = 30) -> float:
    fn()  # warm the template cache
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokenizer", default=str(ROOT / "var/models/smollm2-135m-instruct"))
    parser.add_argument("--json", type=Path, default=ROOT / "bench/results/ui4a_tokens.json")
    args = parser.parse_args()
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(args.tokenizer)

    def tokens(text: str) -> int:
        return len(tokenizer.encode(text, add_special_tokens=False))

    specs = {
        f"example:{n}": json.loads(example_path(c).read_text()) for n, c in components().items()
    }
    specs["dashboard"] = DASHBOARD
    assert validate(DASHBOARD) == [], validate(DASHBOARD)
    print(f"{'spec':<22}{'tokens':>8}{'pretty':>8}{'ratio':>7}{'render ms':>11}")
    counts: dict[str, tuple[int, int]] = {}  # spec: (compact, pretty-printed) tokens
    for name, spec in specs.items():
        compact = json.dumps(spec, separators=(",", ":"), ensure_ascii=False)
        pretty = json.dumps(spec, indent=2, ensure_ascii=False)
        c, p = counts[name] = tokens(compact), tokens(pretty)
        ms = median_ms(functools.partial(render_document, spec))
        print(f"{name:<22}{c:>8}{p:>8}{c / p:>7.2f}{ms:>11.2f}")
    examples = [count for name, count in counts.items() if name != "dashboard"]
    compact_total, pretty_total = (sum(column) for column in zip(*examples, strict=True))
    ratio = compact_total / pretty_total
    print(f"{'all examples':<22}{compact_total:>8}{pretty_total:>8}{ratio:>7.2f}")
    big = big_spec()
    assert validate(big) == [], validate(big)[:3]
    body = median_ms(lambda: render_body(big))
    doc = median_ms(lambda: render_document(big))
    nodes = count_nodes(big["root"])
    print(f"\n{nodes}-node spec: render_body median {body:.2f} ms, render_document {doc:.2f} ms")
    print(f"target <= 10 ms: {'met' if body <= 10 else 'MISSED'}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps(
            {
                "examples_compact_tokens": compact_total,
                "examples_pretty_tokens": pretty_total,
                "dashboard_compact_tokens": counts["dashboard"][0],
                "dashboard_pretty_tokens": counts["dashboard"][1],
                "render_nodes": nodes,
                "render_body_ms_median": round(body, 2),
                "render_document_ms_median": round(doc, 2),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
