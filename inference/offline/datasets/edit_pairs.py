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

import math
import re
from collections import Counter
from random import Random

from inference.offline.datasets.common import Record, record, turn

EDIT = "edit"
DATA_DASHBOARD = "data-dashboard"  # prompts over a dataset's profile: not screens to edit


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


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


def nearest(queries: list[str], library: list[str], top: int) -> list[list[int]]:
    """For each query, the indices of the `top` library prompts closest to it by TF-IDF cosine
    (weights from the library), best first, ties to the earlier index; never the query itself."""
    import numpy as np

    bags = [Counter(words(p)) for p in library]
    df = Counter(w for bag in bags for w in bag)
    idf = {w: math.log(len(library) / n) + 1.0 for w, n in df.items()}

    def unit(bag: Counter[str]) -> dict[str, float]:
        weights = {w: n * idf[w] for w, n in bag.items() if w in idf}
        norm = math.sqrt(sum(v * v for v in weights.values())) or 1.0
        return {w: v / norm for w, v in weights.items()}

    # An inverted index: each word's library rows and weights, so a query touches only the
    # rows that share a word with it.
    rows: dict[str, list[int]] = {}
    weights: dict[str, list[float]] = {}
    for row, bag in enumerate(bags):
        for word, weight in unit(bag).items():
            rows.setdefault(word, []).append(row)
            weights.setdefault(word, []).append(weight)
    postings = {w: (np.array(rows[w]), np.array(weights[w])) for w in rows}
    position = {p: i for i, p in enumerate(library)}
    out: list[list[int]] = []
    for query in queries:
        scores = np.zeros(len(library))
        for word, weight in unit(Counter(words(query))).items():
            where, values = postings[word]
            scores[where] += weight * values
        same = position.get(query)
        if same is not None:
            scores[same] = -np.inf
        # A stable sort of the negated scores: equal scores keep library order.
        out.append([int(i) for i in np.argsort(-scores, kind="stable")[:top]])
    return out


def edit_pairs(
    records: list[Record], library: list[Record], *, seed: int = 0, top: int = 8
) -> list[Record]:
    """One edit conversation per screen in `records`, its first turn a near neighbour's from
    the screens of `library` (the training split, for train and eval records alike)."""
    targets, shelf = screens(records), screens(library)
    prompts = [r["messages"][0]["content"] for r in shelf]
    neighbours = nearest([r["messages"][0]["content"] for r in targets], prompts, top)
    rng = Random(seed)
    out = []
    for rec, near in zip(targets, neighbours, strict=True):
        answer = rec["messages"][1]["content"]
        choices = [i for i in near if shelf[i]["messages"][1]["content"] != answer]
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
