"""How varied the ui dataset is, in numbers for its manifest: distinct layouts (the tree of
component types, labels aside), distinct (component, label) pairs among interactive elements,
kinds, and the answers' length distribution."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from inference.offline.datasets.common import Record

INTERACTIVE = ("button", "input", "select", "radio", "checkbox", "switch", "textarea", "slider")


def layout(node: dict[str, Any]) -> str:
    """The shape of a tree: `page(heading,card(form(input,select)),table)`."""
    kids = node.get("c", [])
    inner = ",".join(layout(kid) for kid in kids)
    return f"{node['t']}({inner})" if kids else str(node["t"])


def labelled(node: dict[str, Any]) -> list[tuple[str, str]]:
    """(component, label) of every interactive element in a tree; tabs count each tab."""
    out: list[tuple[str, str]] = []
    todo = [node]
    while todo:
        current = todo.pop()
        if current["t"] in INTERACTIVE and isinstance(current.get("label"), str):
            out.append((current["t"], current["label"]))
        if current["t"] == "tabs":
            out.extend(("tab", str(label)) for label in current.get("tabs", []))
        todo.extend(current.get("c", []))
    return out


def percentiles(values: list[int]) -> dict[str, int]:
    ordered = sorted(values)
    if not ordered:
        return {}
    at = {"p10": 0.1, "p50": 0.5, "p90": 0.9, "p99": 0.99}
    out = {name: ordered[min(len(ordered) - 1, int(q * len(ordered)))] for name, q in at.items()}
    out["max"] = ordered[-1]
    return out


def diversity(records: list[Record]) -> dict[str, Any]:
    layouts: set[str] = set()
    pairs: set[tuple[str, str]] = set()
    lengths: list[int] = []
    for rec in records:
        for message in rec["messages"]:
            if message["role"] != "assistant":
                continue
            spec = json.loads(message["content"])
            layouts.add(layout(spec["root"]))
            pairs.update(labelled(spec["root"]))
        lengths.append(len(rec["messages"][-1]["content"]))
    kinds = Counter(r["kind"].split("/")[0] for r in records)
    return {
        "records": len(records),
        "refinements": sum(r["kind"].endswith("/refine") for r in records),
        "distinct_layouts": len(layouts),
        "distinct_component_label_pairs": len(pairs),
        "kinds": len(kinds),
        "answer_chars": percentiles(lengths),
    }
