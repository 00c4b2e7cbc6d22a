"""What every dataset shares: the record shape, seeded phrasing, the train/eval split, JSONL.

A record is `{"id", "expert", "kind", "messages": [...], "split"}`; the messages are the
conversation after the expert's system prompt (which training adds exactly as serving does), and
the last one is the assistant's answer the loss is taken on.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Sequence
from random import Random
from typing import Any, TypeVar

Record = dict[str, Any]
T = TypeVar("T")

EVAL_PERCENT = 10


def pick(rng: Random, options: Sequence[T]) -> T:
    return options[rng.randrange(len(options))]


def sample(rng: Random, options: Sequence[T], count: int) -> list[T]:
    return rng.sample(list(options), min(count, len(options)))


def normalize(prompt: str) -> str:
    """The form two prompts are compared in: letter case, punctuation and spacing don't count."""
    return " ".join(re.sub(r"[^a-z0-9]+", " ", prompt.lower()).split())


def split_of(prompt: str) -> str:
    """Eval or train, from a hash of the normalized first prompt: stable across runs and seeds,
    and two phrasings that normalize alike can never land on both sides."""
    digest = hashlib.sha256(normalize(prompt).encode()).digest()
    return "eval" if digest[0] * 100 // 256 < EVAL_PERCENT else "train"


def record(expert: str, kind: str, messages: list[dict[str, str]]) -> Record:
    first = next(m["content"] for m in messages if m["role"] == "user")
    body = json.dumps(messages, sort_keys=True, separators=(",", ":"))
    return {
        "id": f"{expert}-{hashlib.sha256(body.encode()).hexdigest()[:12]}",
        "expert": expert,
        "kind": kind,
        "messages": messages,
        "split": split_of(first),
    }


def turn(prompt: str, answer: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": prompt}, {"role": "assistant", "content": answer}]


def unique(records: Iterable[Record]) -> list[Record]:
    """Drop records whose user turns normalize to ones already seen (first one wins)."""
    seen: set[str] = set()
    kept = []
    for rec in records:
        key = " | ".join(normalize(m["content"]) for m in rec["messages"] if m["role"] == "user")
        if key not in seen:
            seen.add(key)
            kept.append(rec)
    return kept


def compact(value: object) -> str:
    """JSON the way the ui expert writes it: no whitespace (serving disables it too)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def jsonl_bytes(records: Iterable[Record]) -> bytes:
    return b"".join(
        (json.dumps(r, sort_keys=True, ensure_ascii=False) + "\n").encode() for r in records
    )


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def add_typos(rng: Random, text: str, count: int = 2) -> str:
    """A person typing fast: swapped, dropped or doubled letters inside words of 4+ letters."""
    chars = list(text)
    spots = [i for i in range(1, len(chars) - 2) if chars[i].isalpha() and chars[i + 1].isalpha()]
    for i in sorted(sample(rng, spots, count), reverse=True):
        how = rng.randrange(3)
        if how == 0:
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        elif how == 1:
            del chars[i]
        else:
            chars.insert(i, chars[i])
    return "".join(chars)


def article(noun: str) -> str:
    """The indefinite article a noun phrase takes, as the prompts write it."""
    return "an" if noun[:1].lower() in "aeiou" else "a"
