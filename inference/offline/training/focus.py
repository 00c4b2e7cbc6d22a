"""A warm start that teaches one new kind of example without forgetting the rest.

Training an adapter further on only the new kind would let it drift from everything else it
does; so the set is every example of that kind plus a seeded replay of the others, the new kind
making up `share` of it.
"""

from __future__ import annotations

from random import Random

from inference.offline.datasets.common import Record


def focus_mix(records: list[Record], kind: str, share: float, seed: int = 0) -> list[Record]:
    """`kind` is one kind, or several joined by commas (the tool loop's four, say)."""
    if not 0 < share <= 1:
        raise ValueError(f"the focus share must be in (0, 1], not {share}")
    kinds = set(kind.split(","))
    focused = [r for r in records if r["kind"] in kinds]
    if not focused:
        raise ValueError(f"no {kind!r} examples to focus on")
    others = [r for r in records if r["kind"] not in kinds]
    rng = Random(seed)
    replay = round(len(focused) * (1 - share) / share)
    mixed = focused + rng.sample(others, min(replay, len(others)))
    rng.shuffle(mixed)  # the first examples are the eval subset: both kinds belong in it
    return mixed
