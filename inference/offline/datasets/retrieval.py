"""TF-IDF nearest neighbours over prompts: the retrieval UI4A-Bench's baseline answers with
(bench/ui4a_bench/baselines.py), and what retrieve-then-edit pairs start from (edit_pairs.py).
One index for both, so the expert trains to edit what the bench's `edit` variant retrieves.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from typing import Any


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


class PromptIndex:
    """TF-IDF vectors of `prompts` (weights from them alone), in an inverted index: each word's
    rows and weights, so a query touches only the rows that share a word with it."""

    def __init__(self, prompts: list[str]) -> None:
        bags = [Counter(words(p)) for p in prompts]
        df: Counter[str] = Counter(w for bag in bags for w in bag)
        self.size = len(prompts)
        self.idf = {w: math.log(len(prompts) / n) + 1.0 for w, n in df.items()}
        rows: dict[str, list[int]] = {}
        weights: dict[str, list[float]] = {}
        for row, bag in enumerate(bags):
            for word, weight in self._unit(bag).items():
                rows.setdefault(word, []).append(row)
                weights.setdefault(word, []).append(weight)
        self._postings = {w: (rows[w], weights[w]) for w in rows}

    def _unit(self, bag: Counter[str]) -> dict[str, float]:
        weights = {w: n * self.idf[w] for w, n in bag.items() if w in self.idf}
        norm = math.sqrt(sum(v * v for v in weights.values())) or 1.0
        return {w: v / norm for w, v in weights.items()}

    def scores(self, query: str) -> Any:
        """The query's cosine with every prompt, as a numpy array."""
        import numpy as np

        scores = np.zeros(self.size)
        for word, weight in self._unit(Counter(words(query))).items():
            where, values = self._postings[word]
            scores[where] += weight * np.asarray(values)
        return scores

    def nearest(
        self, query: str, top: int = 1, *, skip: int | None = None
    ) -> list[tuple[int, float]]:
        """The `top` prompts closest to `query` as (index, cosine), best first, ties to the
        earlier index; never `skip`."""
        import numpy as np

        scores = self.scores(query)
        if skip is not None:
            scores[skip] = -np.inf
        # A stable sort of the negated scores: equal scores keep the prompts' order.
        return [(int(i), float(scores[i])) for i in np.argsort(-scores, kind="stable")[:top]]
