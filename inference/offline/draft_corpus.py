"""The draft corpus an adapter ships: a sample of its training answers, one JSON string a line
(`draft-corpus.jsonl`), from which the engine drafts (inference/serving/corpus_drafts.py).

Only experts whose answers repeat shapes across requests get one: the ui expert's specs share
their keys, components and actions, where a chat answer shares little with another. Drafts
never change what the model writes greedily, so the sample is taken from the training split
with no care for the dev set; it only decides how many steps a spec takes.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

from inference.offline.datasets.common import Record
from inference.serving.corpus_drafts import CORPUS_FILE

DRAFTED_EXPERTS = frozenset({"ui"})
# About 250 KB: a draft from 100 specs or from 3,000 was as often right (bench/RESULTS.md), and
# the engine core builds the table of 200 in about 0.2 s, once per loaded adapter.
CORPUS_ANSWERS = 200


def answers(records: list[Record]) -> list[str]:
    return [m["content"] for r in records for m in r["messages"] if m["role"] == "assistant"]


def write_draft_corpus(
    folder: Path, expert: str, train_set: list[Record], *, seed: int = 0
) -> Path | None:
    """Write `folder`'s corpus from a seeded sample of `train_set`'s answers; None (nothing
    written) for an expert that gets none."""
    if expert not in DRAFTED_EXPERTS:
        return None
    pool = answers(train_set)
    sample = Random(seed).sample(pool, min(CORPUS_ANSWERS, len(pool)))
    path = folder / CORPUS_FILE
    path.write_text("".join(json.dumps(text) + "\n" for text in sample), encoding="utf-8")
    return path
