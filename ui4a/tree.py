"""Walking the node tree of a spec in document order, and naming nodes by their path."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class NodeRef:
    node: dict[str, Any]
    path: Path
    depth: int  # 0 for the root page


def pointer(path: Path) -> str:
    """A JSON pointer for a path, e.g. ("root", "c", 2, "bind") -> "/root/c/2/bind"."""
    return "".join(f"/{str(p).replace('~', '~0').replace('/', '~1')}" for p in path)


def path_id(path: Path) -> str:
    """The default id of the node at `path`: "r" for the root, "r-1-2" for /root/c/1/c/2.

    Repair writes these into the spec, and the renderer derives DOM ids the same way, so a
    streamed view and its repaired final version keep the same element identities.
    """
    return "-".join(["r", *(str(p) for p in path if isinstance(p, int))])


def children(node: dict[str, Any]) -> list[Any]:
    kids = node.get("c")
    return kids if isinstance(kids, list) else []


def walk(spec: object) -> Iterator[NodeRef]:
    """Every node object under spec["root"], parents before children, in document order."""
    if not isinstance(spec, dict) or not isinstance(spec.get("root"), dict):
        return
    stack: list[NodeRef] = [NodeRef(spec["root"], ("root",), 0)]
    while stack:
        ref = stack.pop()
        yield ref
        kids = children(ref.node)
        for i in range(len(kids) - 1, -1, -1):
            if isinstance(kids[i], dict):
                stack.append(NodeRef(kids[i], (*ref.path, "c", i), ref.depth + 1))
