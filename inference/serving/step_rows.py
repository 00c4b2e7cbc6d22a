"""A decoding step's rows of logits, as vLLM's model runner holds them, for the rules a UI4A
spec's requests ask for (logit_rules.py): which rows are whose, what each request asked for in
its `SamplingParams.extra_args`, and the tokens' texts.

With drafts, a request has several rows in a step: one per draft, and one after them. Row j
is read as if drafts 0..j-1 were written; it is only kept if they are accepted.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

Strings = Callable[[int], str]  # a token id's text
# One request of a step: its id, its state in the runner, its first row of the step's logits,
# its rows' count (its drafts' and the one after them) and its drafts (-1: one vLLM left out).
Row = tuple[str, Any, int, int, list[int]]


def batch_rows(runner: Any, spec_decode_metadata: Any) -> Iterator[Row]:
    """Each request of the runner's batch, in batch order."""
    meta = spec_decode_metadata
    drafts = meta.num_draft_tokens if meta is not None else None
    draft_ids: list[int] = meta.draft_token_ids.tolist() if meta is not None else []
    first = drafted = 0
    for index, req_id in enumerate(runner.input_batch.req_ids):
        count = 1 + (drafts[index] if drafts is not None else 0)
        mine = draft_ids[drafted : drafted + count - 1]
        yield req_id, runner.requests.get(req_id), first, count, mine
        first += count
        drafted += count - 1


def after_drafts(count: int, drafts: list[int], strings: Strings) -> Iterator[tuple[int, str]]:
    """Each of a request's `count` rows with the text of the draft right before it ("" before
    the first), up to the first draft vLLM left out (-1, a draft that broke the grammar: the
    rows after it count for nothing)."""
    for row in range(count):
        if row > 0 and drafts[row - 1] < 0:
            return
        yield row, strings(drafts[row - 1]) if row > 0 else ""


def asked(state: Any, name: str) -> Any:
    """What a request's `extra_args` hold under `name` (None where it asked for nothing)."""
    params = getattr(state, "sampling_params", None)
    return (getattr(params, "extra_args", None) or {}).get(name)


@dataclass
class OutputReader:
    """A request's output tokens, read as they come: each call spells those not read yet."""

    read: int = 0

    def unread(self, outputs: list[int], strings: Strings) -> tuple[str, bool]:
        """The text of the tokens not read yet, and whether the output was taken back (never
        done; if it were, it is all read again, and the caller starts afresh)."""
        restarted = len(outputs) < self.read
        start = 0 if restarted else self.read
        self.read = len(outputs)
        return "".join(strings(t) for t in outputs[start:]), restarted


@dataclass
class OutputText:
    """One request's output text, read from its tokens as they come."""

    text: str = ""
    reader: OutputReader = field(default_factory=OutputReader)

    def update(self, outputs: list[int], strings: Strings) -> str:
        unread, restarted = self.reader.unread(outputs, strings)
        self.text = unread if restarted else self.text + unread
        return self.text


def texts_by_row(
    batch: Iterable[Row], kept: dict[str, Any], read: Callable[[], Strings], name: str
) -> Iterator[tuple[int, str, Strings]]:
    """Each row of the requests that asked for `name` (row j of a request after its drafts
    0..j-1), with the request's output text as that row reads it, and the tokens' texts. `kept`
    holds the requests' texts while they are in the batch."""
    for req_id, state, first, count, drafts in batch:
        if not asked(state, name):
            continue
        strings = read()
        text = kept.setdefault(req_id, OutputText()).update(list(state.output_token_ids), strings)
        for row, draft in after_drafts(count, drafts, strings):
            text += draft
            yield first + row, text, strings


def kept_in_batch(runner: Any, name: str) -> dict[str, Any]:
    """A per-request store on the runner, less the requests no longer in its batch (a request
    back after leaving it starts afresh)."""
    in_batch = set(runner.input_batch.req_ids)
    kept = {k: v for k, v in getattr(runner, name, {}).items() if k in in_batch}
    setattr(runner, name, kept)
    return kept


@functools.lru_cache(maxsize=4)
def token_strings(tokenizer_path: str) -> Strings:
    """Each token id's text, as the model's tokenizer decodes it alone (cached)."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(tokenizer_path)
    return functools.lru_cache(maxsize=None)(
        lambda token: str(tokenizer.decode([token], skip_special_tokens=True))
    )
