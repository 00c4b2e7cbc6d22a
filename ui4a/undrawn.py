"""What a staged spec's head aims its actions at but never draws, and the nodes that draw it.

The head (ui4a/declarations.py) decodes under one JSON schema, which cannot look ahead: a
button that opens a dialog or switches tabs may come before the dialog or tabs it aims at, and
the expert may never write them. The engine then draws them in a middle stage
(inference/serving/staged_decode.py) as the page's last children:
- a dialog bound to each key an `open` or `close` names;
- tabs bound to each key a `tab` names, with a tab for each label those actions switch to, in
  the order they first name them, and a panel for each.
A dialog is modal and tabs hold their own panels, so the page's end serves both.

Tabs that are drawn but lack the label an action names are left as they are: their labels are
written already, and adding one would rewrite what the stream has shown.

What the middle stage draws may hold buttons too, and no stage follows it to draw what those
aim at: its actions that open, close or switch may aim only at the dialogs and tabs the spec
will then hold (`aimable`, `aiming_only_at`), each tabs key with its own labels.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from ui4a import actions, registry
from ui4a.declarations import KEY
from ui4a.tree import walk
from ui4a.validate import Targets, actions_at, targets

Schema = dict[str, Any]
# The schema's definition of each drawable component as a child of the page (ui4a/schema.py
# names definitions by depth).
PAGE_CHILD = {"dialog": "dialog1", "tabs": "tabs1"}


@dataclass(frozen=True)
class Undrawn:
    """A component the head's actions aim at and no node of it binds: its kind ("dialog" or
    "tabs"), the key it is to bind, and for tabs the labels the actions switch to."""

    component: str
    key: str
    labels: tuple[str, ...] = ()


def undrawn(head: dict[str, Any]) -> list[Undrawn]:
    """Each dialog and tabs the head's actions aim at but no node of it binds, in document order
    of the first action at it, each key once (the first kind aimed at it wins)."""
    aims = targets(head)
    drawn = {"dialog": aims.dialogs, "tabs": set(aims.tabs)}
    found: dict[str, Undrawn] = {}
    for action, key, value in _aimed(head):
        if action not in PAGE_CHILD or key in drawn[action]:
            continue
        seen = found.setdefault(key, Undrawn(action, key))
        if seen.component == "tabs" == action and isinstance(value, str):
            found[key] = Undrawn("tabs", key, _with(seen.labels, value))
    return list(found.values())


def _with(labels: tuple[str, ...], label: str) -> tuple[str, ...]:
    return labels if label in labels else (*labels, label)


def _aimed(head: dict[str, Any]) -> list[tuple[str, str, object]]:
    """Each action of the head that aims at a dialog or tabs: its target's kind, the key it
    names and its value, in document order."""
    aimed: list[tuple[str, str, object]] = []
    for ref in walk(head):
        component = registry.get(ref.node.get("t"))
        for field in component.fields if component is not None else ():
            if field.kind != "action":
                continue
            for _, one in actions_at(ref.node.get(field.name)):
                action, key = actions.get(one.get("do")), one.get("path")
                if action is not None and isinstance(key, str):
                    aimed.append((action.target, key, one.get("value")))
    return aimed


def to_draw(schema: Schema, head: dict[str, Any]) -> list[Undrawn]:
    """The undrawn dialogs and tabs, if the page can hold them all as its last children and the
    schema lets each bind its key and hold its labels; none otherwise (drawing some would leave
    the spec invalid)."""
    found = undrawn(head)
    page = schema["$defs"]["page"]["properties"]["c"]
    children = head.get("root", {}).get("c")
    room = page["maxItems"] - (len(children) if isinstance(children, list) else 0)
    if len(found) > room or not all(_drawable(schema, one) for one in found):
        return []
    return found


def _drawable(schema: Schema, one: Undrawn) -> bool:
    properties = schema["$defs"][PAGE_CHILD[one.component]]["properties"]
    if not (re.fullmatch(properties["bind"]["pattern"], one.key) and KEY.fullmatch(one.key)):
        return False
    if one.component == "dialog":
        return True
    labels = properties["tabs"]
    label = labels["items"]
    fits = all(label["minLength"] <= len(x) <= label["maxLength"] for x in one.labels)
    most = min(labels["maxItems"], properties["c"]["maxItems"])
    return fits and 0 < len(one.labels) <= most


def aimable(head: dict[str, Any], drawn: list[Undrawn]) -> Targets:
    """The dialogs and tabs (with their labels) the spec holds once `drawn` are drawn."""
    aims = targets(head)
    dialogs = aims.dialogs | {one.key for one in drawn if one.component == "dialog"}
    tabs = {**aims.tabs, **{one.key: list(one.labels) for one in drawn if one.component == "tabs"}}
    return Targets(dialogs, tabs, aims.datasets)


def aiming_only_at(schema: Schema, aims: Targets) -> Schema:
    """`schema` whose actions that open or close a dialog name one of `aims`' dialogs, and whose
    tab switches name one of its tabs and one of that tabs' labels; an action with nothing to
    aim at is left out."""
    schema = copy.deepcopy(schema)
    action = schema["$defs"]["action"]
    options: list[Schema] = []
    for option in action["anyOf"]:
        target = actions.ACTIONS[option["properties"]["do"]["const"]].target
        if target == "dialog" and aims.dialogs:
            options.append(_with_path(option, {"enum": sorted(aims.dialogs)}))
        elif target == "tabs":
            options += [
                _with_path(option, {"const": key}, value={"enum": labels})
                for key, labels in sorted(aims.tabs.items())
                if labels
            ]
        elif target not in ("dialog", "tabs"):
            options.append(option)
    action["anyOf"] = options
    return schema


def _with_path(option: Schema, path: Schema, **more: Schema) -> Schema:
    return {**option, "properties": {**option["properties"], "path": path, **more}}


def drawn_schema(schema: Schema, one: Undrawn) -> Schema:
    """The node that draws `one`, as a child of the page: the spec schema's own, bound to its key
    and with no `if` (a dialog shows when its key is set, tabs always); tabs have exactly its
    labels and a panel for each. The middle stage passes a schema `aiming_only_at` what the
    spec will hold."""
    node = copy.deepcopy(schema["$defs"][PAGE_CHILD[one.component]])
    properties = node["properties"]
    properties.pop("if", None)
    properties["bind"] = {"const": one.key}
    if one.component == "tabs":
        properties["tabs"] = {"const": list(one.labels)}
        panels = len(one.labels)
        properties["c"] = {**properties["c"], "minItems": panels, "maxItems": panels}
        node["required"] = [*node["required"], "c"]
    return {**node, "$defs": schema["$defs"]}
