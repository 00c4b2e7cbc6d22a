"""Retrieve-then-edit pairs: a screen as the second turn after a near neighbour's prompt and
spec, neighbours from the training split alone, the screen's own split kept."""

from __future__ import annotations

import pytest

from inference.offline.datasets.common import Record, record, turn
from inference.offline.datasets.edit_pairs import edit_mix, edit_pairs
from inference.offline.datasets.retrieval import PromptIndex


def screen(prompt: str, spec: str, split: str = "train", kind: str = "garden") -> Record:
    return {**record("ui", kind, turn(prompt, spec)), "split": split}


LIBRARY = [
    screen("a garden planner with beds and seeds", '{"title":"A"}'),
    screen("a garden planner with beds", '{"title":"B"}'),
    screen("a music player with a playlist", '{"title":"C"}'),
    screen("a playlist of songs with a play button", '{"title":"D"}'),
    screen("login form", '{"title":"E"}', kind="data-dashboard"),
]


def test_nearest_ranks_by_shared_rare_words_and_never_returns_the_skipped_prompt() -> None:
    prompts = [r["messages"][0]["content"] for r in LIBRARY]
    index = PromptIndex(prompts)
    ranked = [[i for i, _ in index.nearest(p, 2, skip=n)] for n, p in enumerate(prompts)]
    assert ranked[0][0] == 1 and ranked[1][0] == 0
    assert ranked[2][0] == 3 and ranked[3][0] == 2
    assert all(i not in near for i, near in enumerate(ranked))
    # A query that is not in the library may get any of it, the closest first.
    [(best, cosine)] = index.nearest("songs on a playlist")
    assert best == 3 and 0 < cosine < 1
    # Unskipped, a prompt of the library is its own nearest, at a cosine of 1.
    [(itself, cosine)] = index.nearest(prompts[2])
    assert itself == 2 and cosine == pytest.approx(1.0)


def test_each_screen_follows_a_neighbours_prompt_and_spec_in_its_own_split() -> None:
    pairs = edit_pairs(LIBRARY, LIBRARY, top=1)
    # The data dashboard is neither edited nor a starting point: it answers over a profile.
    assert len(pairs) == 4
    first = pairs[0]
    assert [m["content"] for m in first["messages"]] == [
        "a garden planner with beds",
        '{"title":"B"}',
        "a garden planner with beds and seeds",
        '{"title":"A"}',
    ]
    assert first["kind"] == "garden/edit" and all(p["split"] == "train" for p in pairs)


def test_a_neighbour_with_the_same_spec_is_no_starting_point() -> None:
    twins = [
        screen("a garden planner", '{"title":"same"}'),
        screen("a garden planner please", '{"title":"same"}'),
        screen("a music player", '{"title":"other"}'),
    ]
    pairs = edit_pairs(twins[:1], twins, top=2)
    assert pairs[0]["messages"][1]["content"] == '{"title":"other"}'
    assert edit_pairs(twins[:1], twins, top=1) == []  # the only neighbour in reach is a twin


def test_the_mix_draws_eval_neighbours_from_training_and_replays_refinements() -> None:
    refinement = {
        **record("ui", "garden/refine", turn("a garden", "{}") + turn("make it dark", "{}")),
        "split": "train",
    }
    held_out = screen("a garden planner with seeds", '{"title":"H"}', split="eval")
    train, evals = edit_mix([*LIBRARY, refinement], [held_out])
    assert refinement in train and len(train) == 5
    assert len(evals) == 1 and evals[0]["split"] == "eval"
    assert evals[0]["messages"][0]["content"] in {r["messages"][0]["content"] for r in LIBRARY}
    # Seeded: the same mix every time.
    assert edit_mix([*LIBRARY, refinement], [held_out]) == (train, evals)
