"""Targeted refinement's two halves: cut one node out of a spec as a small spec of its own (what
the model revises), and put the revised one back with everything else kept byte for byte.

A node is addressed by its JSON pointer, "/root/c/1/c/0" (`ui4a.tree.pointer`). The small spec
is a page holding that one node, with the state keys and datasets the node reads, so the model
sees a complete spec in the shape it was trained on. Splicing replaces the node with the
revised page's children (all of them, in its place). Outside the node nothing changes: state
keys and datasets that other nodes read keep their values; only the ones the node alone reads
may take revised values, and new ones are added.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from typing import Any

from ui4a import registry
from ui4a.fields import kind_of
from ui4a.tree import Path, children, walk
from ui4a.validate import state_references


class SubtreeError(ValueError):
    """A pointer that names no node, or a revision with nothing to splice in."""


def node_path(spec: object, where: str) -> Path:
    """The path of the node `where` points at; raises SubtreeError unless it is a node below
    the root page ("/root/c/<i>", then any number of "/c/<i>")."""
    parts = where.split("/")
    if len(parts) < 4 or parts[0] != "" or parts[1] != "root":
        raise SubtreeError(f"{where[:200]!r} does not point at an element inside the page.")
    steps = parts[2:]
    if len(steps) % 2:
        raise SubtreeError(f"{where[:200]!r} does not point at an element.")
    if not isinstance(spec, dict) or not isinstance(spec.get("root"), dict):
        raise SubtreeError("The spec has no page to select an element in.")
    node: dict[str, Any] = spec["root"]
    path: list[str | int] = ["root"]
    for key, index in zip(steps[::2], steps[1::2], strict=True):
        kids = node.get("c") if key == "c" else None
        if not isinstance(kids, list) or not index.isdigit() or int(index) >= len(kids):
            raise SubtreeError(f"No element at {where[:200]!r} in this version.")
        child = kids[int(index)]
        if not isinstance(child, dict):
            raise SubtreeError(f"No element at {where[:200]!r} in this version.")
        node = child
        path += ["c", int(index)]
    return tuple(path)


def node_at(spec: dict[str, Any], path: Path) -> dict[str, Any]:
    node: dict[str, Any] = _value_at(spec, path)
    return node


def _value_at(spec: dict[str, Any], path: Path) -> Any:
    value: Any = spec
    for step in path:
        value = value[step]
    return value


def extract(spec: dict[str, Any], where: str) -> dict[str, Any]:
    """The node at `where` as a spec of its own: the title and theme, a page holding the node,
    and the state keys and datasets the node reads."""
    node = node_at(spec, node_path(spec, where))
    mini: dict[str, Any] = {
        key: copy.deepcopy(spec[key]) for key in ("title", "theme") if key in spec
    }
    mini["root"] = {"t": "page", "c": [copy.deepcopy(node)]}
    state = spec.get("state")
    reads = _state_keys(mini)
    mini["state"] = (
        {key: copy.deepcopy(state[key]) for key in reads if key in state}
        if isinstance(state, dict)
        else {}
    )
    data = spec.get("data")
    datasets = _datasets_read([node])
    if isinstance(data, dict) and any(name in data for name in datasets):
        mini["data"] = {name: copy.deepcopy(data[name]) for name in datasets if name in data}
    return mini


def splice(spec: dict[str, Any], where: str, revised: dict[str, Any]) -> dict[str, Any]:
    """`spec` with the node at `where` replaced by the children of `revised`'s page; raises
    SubtreeError when the revision holds no element. `spec` itself is not modified."""
    path = node_path(spec, where)
    root = revised.get("root") if isinstance(revised, dict) else None
    kids = children(root) if isinstance(root, dict) else []
    new_nodes = [copy.deepcopy(kid) for kid in kids if isinstance(kid, dict)]
    if not new_nodes:
        raise SubtreeError("The revision holds no element to put in place of the selected one.")
    return _spliced(spec, path, new_nodes, revised)


def splice_partial(spec: dict[str, Any], where: str, revised: object) -> dict[str, Any]:
    """For the preview while a targeted refinement streams: the spec with what has arrived of
    the revision spliced in, or the spec as it is until the first revised element appears."""
    try:
        path = node_path(spec, where)
    except SubtreeError:
        return spec
    root = revised.get("root") if isinstance(revised, dict) else None
    kids = children(root) if isinstance(root, dict) else []
    new_nodes = [kid for kid in kids if isinstance(kid, dict) and kid]
    if not new_nodes:
        return spec
    return _spliced(spec, path, copy.deepcopy(new_nodes), revised)


def _spliced(
    spec: dict[str, Any], path: Path, new_nodes: list[dict[str, Any]], revised: object
) -> dict[str, Any]:
    result = copy.deepcopy(spec)
    parent_kids: list[Any] = _value_at(result, path[:-1])
    index = path[-1]
    assert isinstance(index, int)
    outside = copy.deepcopy(result)
    del _value_at(outside, path[:-1])[index]
    _free_ids(new_nodes, taken={ref.node["id"] for ref in walk(outside) if _has_id(ref.node)})
    parent_kids[index : index + 1] = new_nodes
    revised_spec = revised if isinstance(revised, dict) else {}
    _merge(result, "state", revised_spec.get("state"), read_outside=set(_state_keys(outside)))
    read_data = set(_datasets_read([outside["root"]]))
    _merge(result, "data", revised_spec.get("data"), read_outside=read_data)
    return result


def _merge(
    result: dict[str, Any], section: str, revised: object, *, read_outside: set[str]
) -> None:
    """Take the revision's state keys (or datasets) that nothing outside the node reads: new
    ones are added, and the node's own may change; the rest keep their stored values."""
    if not isinstance(revised, dict) or not revised:
        return
    current = result.get(section)
    if current is None:
        current = result[section] = {}
    if not isinstance(current, dict):
        return  # not ours to fix; validation reports it
    for key, value in revised.items():
        if key not in current or key not in read_outside:
            current[key] = copy.deepcopy(value)


def _has_id(node: dict[str, Any]) -> bool:
    return isinstance(node.get("id"), str)


def _free_ids(nodes: list[dict[str, Any]], *, taken: set[str]) -> None:
    """Rename ids in the new nodes that an element outside them already uses: repair would
    otherwise rename the later of the two, which may be the one outside."""
    for node in _nodes_under(nodes):
        node_id = node.get("id")
        if isinstance(node_id, str):
            free, n = node_id, 2
            while free in taken:  # the suffix repair uses for duplicates, too
                free, n = f"{node_id}-{n}", n + 1
            node["id"] = free
            taken.add(free)


def _nodes_under(nodes: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    stack = list(reversed(list(nodes)))
    while stack:
        node = stack.pop()
        yield node
        stack += [kid for kid in reversed(children(node)) if isinstance(kid, dict)]


def _state_keys(spec: dict[str, Any]) -> list[str]:
    """The state keys a spec's nodes read or write, each once, in document order."""
    return list(dict.fromkeys(ref.key for ref in state_references(spec)))


def _datasets_read(nodes: Iterable[dict[str, Any]]) -> list[str]:
    """The datasets the nodes (and everything under them) name, each once, in order."""
    names: dict[str, None] = {}
    for node in _nodes_under(nodes):
        component = registry.get(node.get("t"))
        if component is None:
            continue
        for field in component.fields:
            for holder, key, _where in kind_of(field).dataset_slots(field, node, ""):
                value = holder.get(key)
                if isinstance(value, str):
                    names[value] = None
    return list(names)
