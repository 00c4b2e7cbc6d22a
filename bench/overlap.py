"""How close two prompts are, as the benches' overlap tests define it: a shared run of five
words, or a word overlap (Jaccard, stop words aside)."""

from __future__ import annotations

import re

from inference.offline.datasets.build import records_for

RUN = 5
JACCARD_LIMIT = 0.5
STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "can",
        "for",
        "from",
        "has",
        "have",
        "i",
        "in",
        "is",
        "it",
        "its",
        "me",
        "my",
        "of",
        "on",
        "or",
        "our",
        "so",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "this",
        "to",
        "up",
        "us",
        "we",
        "what",
        "when",
        "which",
        "while",
        "who",
        "will",
        "with",
        "you",
        "your",
    ]
)


def words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def runs(text: str) -> set[tuple[str, ...]]:
    w = words(text)
    return {tuple(w[i : i + RUN]) for i in range(len(w) - RUN + 1)}


def content(text: str) -> frozenset[str]:
    return frozenset(w for w in words(text) if w not in STOP_WORDS)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def training_prompts(expert: str) -> list[str]:
    """Every user turn of an expert's dataset, both splits (eval prompts steer training too)."""
    found = {
        m["content"]
        for split in ("train", "eval")
        for record in records_for(expert, split)
        for m in record["messages"]
        if m["role"] == "user"
    }
    return sorted(found)


def ui_training_prompts() -> list[str]:
    return training_prompts("ui")
