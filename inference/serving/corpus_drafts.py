"""Drafts from an adapter's own corpus (`MACARON_CORPUS_DRAFTS`, on unless `=0`).

The ui expert's specs repeat the shapes of the specs it was trained on: a button's `"label":"`
then `","on":{"do":"`, a table's `"columns":[`, the same theme and state keys. Prompt lookup
drafts only what this request's prompt and output showed before, and jump-forward only what the
grammar forces. An adapter folder that holds `draft-corpus.jsonl` (a sample of the adapter's
training answers, written as it was trained: inference/offline/draft_corpus.py) drafts from
that too: after the output's last 2 to 6 tokens, what followed them where the corpus first
showed them, longest context first. The model checks a corpus draft like any other, so what it
writes greedily does not change, only how many steps it takes (bench/RESULTS.md).

Everything here runs in vLLM's engine core, at every step, for every request with a corpus:
a draft is at most five dictionary lookups and a slice. A corpus is read once per adapter copy,
within budgets checked before and while it is read, and a corpus over them is not used.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

log = logging.getLogger(__name__)

CORPUS_FILE = "draft-corpus.jsonl"
# The key of vLLM's `additional_config` that gives jump-forward's scheduler its draft limits:
# {"lookup": tokens a step without a corpus, "corpus": with one (0: no corpus drafts)}.
DRAFT_LIMITS = "macaron_draft_limits"
# Contexts matched, longest first: a longer one pins the place in a spec better; two tokens
# (`":"`) still tell a key's value from the next key.
CONTEXTS = (6, 5, 4, 3, 2)
# Budgets for a corpus: the committed ones are about 250 KB and 70,000 tokens, and their table
# builds in about 0.2 s; one many times larger would hold the engine core's steps while it builds.
MAX_CORPUS_BYTES = 2**20
MAX_CORPUS_TOKENS = 200_000
# Between two texts in the flat token list, so a draft never runs from one text into the next.
BOUNDARY = -1
# Tables kept: every load of an adapter is a new private copy, so a long-lived engine core that
# loads and evicts adapters would otherwise keep a table for each copy it ever served.
TABLES_KEPT = 16

Encode = Callable[[str], list[int]]


class DraftTable:
    """Where each context of 2 to 6 tokens first appeared in a corpus, and what followed it."""

    def __init__(self, texts: Iterable[list[int]]) -> None:
        self._flat: list[int] = []
        self._after: dict[tuple[int, ...], int] = {}
        for tokens in texts:
            start = len(self._flat)
            self._flat.extend(tokens)
            self._flat.append(BOUNDARY)
            for end in range(start + CONTEXTS[-1], start + len(tokens)):
                for n in CONTEXTS:
                    if end - n >= start:
                        self._after.setdefault(tuple(self._flat[end - n : end]), end)

    @property
    def contexts(self) -> int:
        return len(self._after)

    def draft(self, tokens: Sequence[int], limit: int) -> list[int]:
        """Up to `limit` tokens that followed the longest context of `tokens`' end the corpus
        holds; [] when it holds none."""
        for n in CONTEXTS:
            if len(tokens) < n:
                continue
            at = self._after.get(tuple(tokens[-n:]))
            if at is not None:
                following = self._flat[at : at + limit]
                if BOUNDARY in following:
                    following = following[: following.index(BOUNDARY)]
                return following
        return []


def read_corpus(path: Path, encode: Encode) -> DraftTable | None:
    """The table of the corpus at `path`; None, with a warning, for a corpus over its budgets or
    not a file of JSON strings, one a line."""
    size = path.stat().st_size
    if size > MAX_CORPUS_BYTES:
        log.warning("%s: %d bytes, over %d; no corpus drafts", path, size, MAX_CORPUS_BYTES)
        return None
    texts: list[list[int]] = []
    total = 0
    try:
        for line in path.read_text(encoding="utf-8").splitlines():
            text = json.loads(line)
            if not isinstance(text, str):
                raise ValueError("a line is not a JSON string")
            tokens = encode(text)
            total += len(tokens)
            if total > MAX_CORPUS_TOKENS:
                raise ValueError(f"over {MAX_CORPUS_TOKENS} tokens")
            texts.append(tokens)
    except (UnicodeDecodeError, ValueError) as error:
        log.warning("%s: %s; no corpus drafts", path, error)
        return None
    return DraftTable(texts)


class CorpusDrafts:
    """Each adapter folder's table, read the first time a request of that adapter asks (the
    folder is the worker's private copy, which does not change while it is loaded)."""

    def __init__(self, encode: Encode) -> None:
        self._encode = encode
        self._tables: dict[str, DraftTable | None] = {}

    def table(self, adapter_folder: str) -> DraftTable | None:
        if adapter_folder in self._tables:
            return self._tables[adapter_folder]
        path = Path(adapter_folder) / CORPUS_FILE
        table = read_corpus(path, self._encode) if path.is_file() else None
        if len(self._tables) >= TABLES_KEPT:
            del self._tables[next(iter(self._tables))]  # the oldest read
        self._tables[adapter_folder] = table
        return table
