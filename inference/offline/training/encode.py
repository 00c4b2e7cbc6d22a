"""Turns a dataset record into token ids and labels exactly as serving will prompt the expert.

Serving prepends the expert's system prompt and applies the tokenizer's chat template with a
generation prompt; training does the same, then appends the answer and `<|im_end|>`. Loss is
taken on every assistant turn (labels are -100 on system, user and tool turns).
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
    # Text segments in order, each (text, trained): what the template puts before an assistant
    # turn is context; the turn itself, up to its <|im_end|>, is what the expert must write.
    # Every assistant turn is trained (a tool loop's calls as much as its answer); system,
    # user and tool turns never are.
    segments: list[tuple[str, bool]] = []
    done = ""
    for index, message in enumerate(messages):
        if message["role"] != "assistant":
            continue
        prompt = tokenizer.apply_chat_template(
            messages[:index], tokenize=False, add_generation_prompt=True
        )
        full = tokenizer.apply_chat_template(messages[: index + 1], tokenize=False)
        assert prompt.startswith(done) and full.startswith(prompt), (
            "the chat template must extend each conversation it renders"
        )
        # The answer ends at <|im_end|>, which is where generation stops; the template's
        # trailing newline is not something the expert is asked to produce.
        answer = full[len(prompt) :].rstrip("\n")
        segments += [(prompt[len(done) :], False), (answer, True)]
        done = prompt + answer
    pieces = [(tokenizer(text, add_special_tokens=False)["input_ids"], t) for text, t in segments]
    answer_ids = pieces[-1][0]
    prompt_ids = [i for ids, _ in pieces[:-1] for i in ids]
    prompt_labels = [i if trained else IGNORE for ids, trained in pieces[:-1] for i in ids]
    truncated = len(prompt_ids) + len(answer_ids) > max_len
    if truncated:
        # Keep at least half the window for the final answer; what comes before it loses its
        # head (the system prompt) first. A real run sets max_len so that little is truncated.
        keep_answer = min(len(answer_ids), max(max_len // 2, max_len - len(prompt_ids)))
        answer_ids = answer_ids[:keep_answer]
        cut = len(prompt_ids) - (max_len - keep_answer)
        prompt_ids, prompt_labels = prompt_ids[cut:], prompt_labels[cut:]
    return Encoded(prompt_ids + answer_ids, prompt_labels + answer_ids, truncated)
