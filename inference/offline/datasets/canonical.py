"""Puts a spec's keys in the order the UI4A schema makes the model write them.

Constrained decoding emits properties in schema order, so a training target in any other order
would teach the model text the grammar forbids.
"""

from __future__ import annotations

from typing import Any

from ui4a import actions, registry
from ui4a.catalog import COMMON_FIELDS
from ui4a.theme import THEME_FIELDS

TOP_LEVEL = ("title", "theme", "root", "state", "data")


def _ordered(value: dict[str, Any], order: list[str]) -> dict[str, Any]:
    rank = {name: i for i, name in enumerate(order)}
    return dict(sorted(value.items(), key=lambda kv: rank.get(kv[0], len(rank))))


def _action(value: Any) -> Any:
    if isinstance(value, list):
        return [_action(v) for v in value]
    spec = actions.ACTIONS[value["do"]]
    return _ordered(value, ["do", *(f.name for f in spec.fields)])


def _node(value: dict[str, Any]) -> dict[str, Any]:
    component = registry.get(value["t"])
    assert component is not None, value["t"]
    order = ["t", *(f.name for f in COMMON_FIELDS + component.fields), "c"]
    out = _ordered(value, order)
    if "on" in out:
        out["on"] = _action(out["on"])
    if "c" in out:
        out["c"] = [_node(kid) for kid in out["c"]]
    return out


def canonical(spec: dict[str, Any]) -> dict[str, Any]:
    out = _ordered(spec, list(TOP_LEVEL))
    if "theme" in out:
        out["theme"] = _ordered(out["theme"], [f.name for f in THEME_FIELDS])
    out["root"] = _node(out["root"])
    return out
