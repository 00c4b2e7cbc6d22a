"""UI4A-Bench's no-model baselines: what a screen gets without generating anything.

`retrieval`: the dev prompt's nearest ui training prompt by TF-IDF cosine over words (the
first user turn of every record in the ui dataset's train split, read through the dataset
builder's API), and that record's spec. It measures what copying the closest training example
earns, so the expert's figures can be read against memorisation.

`fixed`: one spec per screen kind, used for every prompt of that kind. The spec is the one
`retrieval` returns for the kind's name alone ("music player", "order tracking"), so it is
chosen without looking at any dev prompt or its requirements. A kind whose name shares no word
with any training prompt gets the first training record's spec (the ranking's tie break).

Both specs go through `ui4a.repair`, as the stack does with a model's output, and through the
same judge as the model variants. Their tokens are the spec's compact JSON under the default
tokenizer, their seconds the lookup's.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ui4a
from bench.ui4a_bench.devset import DevPrompt
from bench.ui4a_bench.generate import Generated
from inference.offline.datasets.build import records_for
from inference.offline.datasets.retrieval import PromptIndex

BASELINES = ("retrieval", "fixed")


@dataclass(frozen=True)
class Example:
    prompt: str
    text: str  # the assistant's spec, as the dataset writes it


class Retriever:
    """TF-IDF nearest neighbour over the ui training prompts (the index the retrieve-then-edit
    training pairs draw from)."""

    def __init__(self, examples: list[Example]) -> None:
        self.examples = examples
        self.index = PromptIndex([e.prompt for e in examples])

    def nearest(self, prompt: str) -> tuple[Example, float]:
        """The closest example and its cosine; ties go to the earliest example."""
        [(best, score)] = self.index.nearest(prompt)
        return self.examples[best], score


def training_examples(seed: int = 0) -> list[Example]:
    """The first (user, assistant) turn of every ui train record, duplicates dropped."""
    seen: set[str] = set()
    out: list[Example] = []
    for record in records_for("ui", "train", seed):
        messages = record["messages"]
        user = next(m["content"] for m in messages if m["role"] == "user")
        answer = next(m["content"] for m in messages if m["role"] == "assistant")
        if user not in seen:
            seen.add(user)
            out.append(Example(user, answer))
    return out


def kind_query(kind: str) -> str:
    return kind.replace("-", " ")


def generate_baselines(
    prompts: list[DevPrompt],
    variants: list[str],
    *,
    count_tokens: Callable[[str], int] | None = None,
) -> list[Generated]:
    """Every prompt under each baseline variant, as the judge expects a generation."""
    retriever = Retriever(training_examples())
    out: list[Generated] = []
    for prompt in prompts:
        for variant in variants:
            started = time.perf_counter()
            query = prompt.prompt if variant == "retrieval" else kind_query(prompt.kind)
            example, score = retriever.nearest(query)
            seconds = time.perf_counter() - started
            out.append(_as_generated(prompt.id, variant, example, score, seconds, count_tokens))
    return out


def _as_generated(
    prompt_id: str,
    variant: str,
    example: Example,
    score: float,
    seconds: float,
    count_tokens: Callable[[str], int] | None,
) -> Generated:
    spec: dict[str, Any] | None = None
    problems: list[dict[str, Any]] = []
    try:
        repaired = ui4a.repair(json.loads(example.text))
        spec = repaired.spec
        problems = [p.as_dict() for p in repaired.problems]
    except ValueError as exc:
        problems = [{"code": "unreadable", "message": str(exc)}]
    text = json.dumps(spec, separators=(",", ":"), ensure_ascii=False) if spec else example.text
    return Generated(
        prompt_id,
        variant,
        generation_id=f"nearest: {example.prompt[:120]} (cosine {score:.2f})",
        status="done",
        finish_reason="stop",
        text=text,
        spec=spec,
        problems=problems,
        tokens=count_tokens(text) if count_tokens else 0,
        seconds=round(seconds, 4),
    )


def default_token_counter() -> Callable[[str], int] | None:
    """The default model's tokenizer, when it is installed; else no token counts."""
    from pathlib import Path

    path = Path("var/models/smollm2-135m-instruct")
    if not path.exists():
        return None
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(path))

    def count(text: str) -> int:
        return len(tokenizer.encode(text, add_special_tokens=False))

    return count
