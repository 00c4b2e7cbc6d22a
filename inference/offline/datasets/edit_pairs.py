"""Retrieve-then-edit pairs for the ui expert (issue 12, item 4).

Each single-turn screen becomes the second turn of a conversation whose first turn is another
screen's prompt and spec, the shape the bench's `edit` variant asks in: the nearest training
example as the expert's earlier answer, then the request. The expert learns to keep what fits
the request and rebuild the rest.

The other screen is drawn at random among the `top` nearest by TF-IDF over prompts, not always
the nearest. On a fresh prompt, retrieval's pick is often a different screen (bench/RESULTS.md,
2026-12-04: a sign-up form for a leaderboard); trained on near-twins alone, the expert would
learn to copy. Both assistant turns are trained (encode.py), so each pair also replays a plain
generation.
"""

from __future__ import annotations

from random import Random

from inference.offline.datasets.common import Record, record, turn
from inference.offline.datasets.retrieval import PromptIndex

EDIT = "edit"
DATA_DASHBOARD = "data-dashboard"  # prompts over a dataset's profile: not screens to edit


def screens(records: list[Record]) -> list[Record]:
    """The single-turn screens among `records`, one per prompt."""
    seen: set[str] = set()
    out = []
    for rec in records:
        messages = rec["messages"]
        if len(messages) != 2 or rec["kind"] == DATA_DASHBOARD:
            continue
        if messages[0]["content"] not in seen:
            seen.add(messages[0]["content"])
            out.append(rec)
    return out


def edit_pairs(
    records: list[Record], library: list[Record], *, seed: int = 0, top: int = 8
) -> list[Record]:
    """One edit conversation per screen in `records`, its first turn a near neighbour's from
    the screens of `library` (the training split, for train and eval records alike)."""
    targets, shelf = screens(records), screens(library)
    prompts = [r["messages"][0]["content"] for r in shelf]
    index, position = PromptIndex(prompts), {p: i for i, p in enumerate(prompts)}
    rng = Random(seed)
    out = []
    for rec in targets:
        prompt, answer = rec["messages"][0]["content"], rec["messages"][1]["content"]
        near = index.nearest(prompt, top, skip=position.get(prompt))  # never itself
        choices = [i for i, _ in near if shelf[i]["messages"][1]["content"] != answer]
        if not choices:
            continue
        other = shelf[rng.choice(choices)]["messages"]
        messages = turn(other[0]["content"], other[1]["content"]) + rec["messages"]
        # The split is the screen's own: an eval screen stays out of training.
        out.append({**record("ui", f"{rec['kind']}/{EDIT}", messages), "split": rec["split"]})
    return out


def edit_mix(
    train_set: list[Record], eval_set: list[Record], seed: int = 0
) -> tuple[list[Record], list[Record]]:
    """The ui expert's retrieve-then-edit training and eval sets: edit pairs from both splits
    (neighbours from training alone), plus the training refinements (a second turn that is a
    targeted change), so the adapter keeps doing those."""
    refinements = [r for r in train_set if r["kind"].endswith("/refine")]
    mixed = edit_pairs(train_set, train_set, seed=seed) + refinements
    Random(seed).shuffle(mixed)
    evals = edit_pairs(eval_set, train_set, seed=seed)
    Random(seed).shuffle(evals)  # the first few are the eval curve's: every kind belongs there
    return mixed, evals
