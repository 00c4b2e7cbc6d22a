"""What changed between two specs, node by node: added, removed and changed nodes, plus the
title, theme, state and data.

Children lists are aligned by node identity (type plus the text that names it, see
ui4a/describe.py) with a longest common subsequence, so inserting a node does not mark every
later sibling changed. Among equally long alignments the one pairing identical nodes, then
the one moving nodes least, wins. Nodes left over between two aligned pairs are paired by
type in order: that is a node whose naming text was edited ("changed"), not a new one.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Literal

from ui4a.describe import describe, naming_field
from ui4a.limits import DEFAULT_LIMITS, Limits, check_value
from ui4a.tree import Path, children, pointer

ChangeKind = Literal["added", "removed", "changed"]
# Past this many candidate pairs a children list is aligned by position: valid specs have at
# most 8 children, so only hostile input gets there, and it stays cheap.
MAX_ALIGNED_PAIRS = 64 * 64
# Properties that are no part of what a designer sees as the node's content.
IGNORED_KEYS = ("t", "c", "id")


@dataclass(frozen=True)
class Change:
    """One difference. `path` is a pointer into the new spec for added and changed entries,
    into the old one for removed entries."""

    change: ChangeKind
    path: str
    node: str  # "button 'Save'", or "theme", "title", "state", "data"
    fields: tuple[str, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        return {
            "change": self.change,
            "path": self.path,
            "node": self.node,
            "fields": [*self.fields],
        }


def diff(old: object, new: object, *, limits: Limits = DEFAULT_LIMITS) -> list[Change]:
    """Every change from `old` to `new`, top-level entries first, then nodes in document order.
    Raises SpecTooLarge when either spec is over the hard limits."""
    check_value(old, limits)
    check_value(new, limits)
    a = old if isinstance(old, dict) else {}
    b = new if isinstance(new, dict) else {}
    changes: list[Change] = []
    if not _same(a.get("title"), b.get("title")):
        changes.append(Change("changed", "/title", "title", ("title",)))
    changes += _keyed("theme", a.get("theme"), b.get("theme"))
    root_a, root_b = a.get("root"), b.get("root")
    if isinstance(root_a, dict) and isinstance(root_b, dict):
        _nodes(root_a, root_b, ("root",), ("root",), changes)
    elif isinstance(root_a, dict):
        changes.append(Change("removed", "/root", describe(root_a)))
    elif isinstance(root_b, dict):
        changes.append(Change("added", "/root", describe(root_b)))
    changes += _keyed("state", a.get("state"), b.get("state"))
    changes += _keyed("data", a.get("data"), b.get("data"))
    return changes


def summary(changes: list[Change]) -> str:
    """ "2 added, 1 changed", or "no changes"."""
    counts = {kind: sum(c.change == kind for c in changes) for kind in ("added", "removed")}
    counts["changed"] = sum(c.change == "changed" for c in changes)
    parts = [f"{n} {kind}" for kind, n in counts.items() if n]
    return ", ".join(parts) if parts else "no changes"


def _keyed(name: str, a: object, b: object) -> list[Change]:
    """The theme, state or data as one entry naming the keys that differ."""
    if _same(a, b):
        return []
    da = a if isinstance(a, dict) else ({} if a is None else {"": a})
    db = b if isinstance(b, dict) else ({} if b is None else {"": b})
    keys = [k for k in _union(da, db) if k not in da or k not in db or not _same(da[k], db[k])]
    return [Change("changed", f"/{name}", name, tuple(keys))]


def _nodes(a: dict[str, Any], b: dict[str, Any], pa: Path, pb: Path, out: list[Change]) -> None:
    """Two nodes taken to be the same one: its own fields, then its children."""
    if a.get("t") != b.get("t"):
        out.append(Change("removed", pointer(pa), describe(a)))
        out.append(Change("added", pointer(pb), describe(b)))
        return
    fields = tuple(
        k
        for k in _union(a, b)
        if k not in IGNORED_KEYS and (k not in a or k not in b or not _same(a[k], b[k]))
    )
    if fields:
        out.append(Change("changed", pointer(pb), describe(b), fields))
    _children(children(a), children(b), (*pa, "c"), (*pb, "c"), out)


def _children(xs: list[Any], ys: list[Any], pa: Path, pb: Path, out: list[Change]) -> None:
    anchors = [*_align(xs, ys), (len(xs), len(ys))]
    i = j = 0
    for ai, bj in anchors:
        _gap(xs, ys, range(i, ai), range(j, bj), pa, pb, out)
        if ai < len(xs):
            _pair(xs[ai], ys[bj], (*pa, ai), (*pb, bj), out)
        i, j = ai + 1, bj + 1


def _gap(
    xs: list[Any], ys: list[Any], olds: range, news: range, pa: Path, pb: Path, out: list[Change]
) -> None:
    """Unaligned nodes between two aligned pairs: same-type ones pair up in order."""
    pending = list(news)
    for i in olds:
        match = next((k for k, j in enumerate(pending) if _kind(ys[j]) == _kind(xs[i])), None)
        if match is None:
            out.append(Change("removed", pointer((*pa, i)), describe(xs[i])))
            continue
        for j in pending[:match]:
            out.append(Change("added", pointer((*pb, j)), describe(ys[j])))
        j = pending[match]
        pending = pending[match + 1 :]
        _pair(xs[i], ys[j], (*pa, i), (*pb, j), out)
    for j in pending:
        out.append(Change("added", pointer((*pb, j)), describe(ys[j])))


def _pair(a: object, b: object, pa: Path, pb: Path, out: list[Change]) -> None:
    if isinstance(a, dict) and isinstance(b, dict):
        _nodes(a, b, pa, pb, out)
    elif not _same(a, b):
        out.append(Change("removed", pointer(pa), describe(a)))
        out.append(Change("added", pointer(pb), describe(b)))


def _align(xs: list[Any], ys: list[Any]) -> list[tuple[int, int]]:
    """The aligned (old index, new index) pairs, in order."""
    if len(xs) * len(ys) > MAX_ALIGNED_PAIRS:
        return [(k, k) for k in range(min(len(xs), len(ys))) if _kind(xs[k]) == _kind(ys[k])]
    ids_a, ids_b = [_identity(x) for x in xs], [_identity(y) for y in ys]
    text_a, text_b = [_canonical(x) for x in xs], [_canonical(y) for y in ys]
    # best[i][j]: the best alignment of xs[i:] and ys[j:], scored as (pairs, identical pairs,
    # -displacement), compared in that order.
    n, m = len(xs), len(ys)
    best = [[(0, 0, 0)] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            score = max(best[i + 1][j], best[i][j + 1])
            if ids_a[i] == ids_b[j]:
                after = best[i + 1][j + 1]
                here = (after[0] + 1, after[1] + (text_a[i] == text_b[j]), after[2] - abs(i - j))
                score = max(score, here)
            best[i][j] = score
    pairs: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        if ids_a[i] == ids_b[j]:
            after = best[i + 1][j + 1]
            here = (after[0] + 1, after[1] + (text_a[i] == text_b[j]), after[2] - abs(i - j))
            if here == best[i][j]:
                pairs.append((i, j))
                i, j = i + 1, j + 1
                continue
        if best[i + 1][j] == best[i][j]:
            i += 1
        else:
            j += 1
    return pairs


def _identity(node: object) -> tuple[str, ...]:
    if not isinstance(node, dict):
        return ("", _canonical(node))
    named = naming_field(node)
    return (_kind(node), *(named or ()))


def _kind(node: object) -> str:
    kind = node.get("t") if isinstance(node, dict) else None
    return kind if isinstance(kind, str) else ""


def _union(a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    return [*b, *(k for k in a if k not in b)]


def _canonical(value: object) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), default=str)


def _same(a: object, b: object) -> bool:
    """Equal as JSON (1 and true differ, unlike in Python)."""
    return _canonical(a) == _canonical(b)
