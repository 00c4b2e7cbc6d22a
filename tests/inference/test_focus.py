"""train_expert --focus: every example of the kind, a seeded replay of the rest at the share
asked, shuffled so an eval subset taken from the front holds both."""

from __future__ import annotations

import pytest

from inference.offline.training.focus import focus_mix


def records(kind: str, count: int) -> list[dict[str, str]]:
    return [{"kind": kind, "id": f"{kind}-{i}"} for i in range(count)]


def test_the_kind_makes_up_its_share_and_both_kinds_lead() -> None:
    data = records("old", 500) + records("new", 60)
    mixed = focus_mix(data, "new", 0.25, seed=3)
    kinds = [r["kind"] for r in mixed]
    assert kinds.count("new") == 60 and kinds.count("old") == 180
    assert {"new", "old"} <= set(kinds[:20])
    assert mixed == focus_mix(data, "new", 0.25, seed=3)  # seeded
    assert len({r["id"] for r in mixed}) == len(mixed)  # no example twice


def test_it_refuses_a_missing_kind_or_a_share_out_of_range() -> None:
    with pytest.raises(ValueError, match="no 'new' examples"):
        focus_mix(records("old", 5), "new", 0.5)
    with pytest.raises(ValueError, match="share"):
        focus_mix(records("new", 5), "new", 0)


def test_several_kinds_joined_by_commas_are_focused_together() -> None:
    data = records("old", 100) + records("a", 10) + records("b", 20)
    mixed = focus_mix(data, "a,b", 0.75, seed=1)
    kinds = [r["kind"] for r in mixed]
    assert kinds.count("a") == 10 and kinds.count("b") == 20 and kinds.count("old") == 10
