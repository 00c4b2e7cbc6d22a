"""Turns a dataset record into token ids and labels exactly as serving will prompt the expert.

Serving prepends the expert's system prompt and applies the tokenizer's chat template with a
generation prompt; training does the same, then appends the answer and `<|im_end|>`. Loss is
taken on the final assistant turn only (labels are -100 elsewhere).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inference.offline.datasets.common import Record
from inference.serving.prompts import system_prompt

IGNORE = -100


@dataclass(frozen=True)
class Encoded:
    ids: list[int]
    labels: list[int]
    truncated: bool


def conversation(expert: str, rec: Record) -> list[dict[str, str]]:
    return [{"role": "system", "content": system_prompt(expert)}, *rec["messages"]]


def encode(tokenizer: Any, expert: str, rec: Record, max_len: int) -> Encoded:
    messages = conversation(expert, rec)
    prompt = tokenizer.apply_chat_template(
        messages[:-1], tokenize=False, add_generation_prompt=True
    )
    full = tokenizer.apply_chat_template(messages, tokenize=False)
    assert full.startswith(prompt), "the chat template must extend the generation prompt"
    prompt_ids = tokenizer(prompt, add_special_tokens=False)["input_ids"]
    # The answer ends at <|im_end|>, which is where generation stops; the template's trailing
    # newline is not something the expert is asked to produce.
    answer = full[len(prompt) :].rstrip("\n")
    answer_ids = tokenizer(answer, add_special_tokens=False)["input_ids"]
    truncated = len(prompt_ids) + len(answer_ids) > max_len
    if truncated:
        # Keep at least half the window for the answer; the prompt loses its head (the system
        # prompt) first. A real run sets max_len so that nothing is truncated.
        keep_answer = min(len(answer_ids), max(max_len // 2, max_len - len(prompt_ids)))
        answer_ids = answer_ids[:keep_answer]
        prompt_ids = prompt_ids[len(prompt_ids) - (max_len - keep_answer) :]
    ids = prompt_ids + answer_ids
    labels = [IGNORE] * len(prompt_ids) + answer_ids
    return Encoded(ids, labels, truncated)
