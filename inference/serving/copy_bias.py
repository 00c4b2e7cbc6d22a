"""The request's own words, favoured while a UI4A spec decodes (`MACARON_COPY_BIAS`).

The ui expert's commonest failure on fresh prompts is a detail left out: a name, a column, an
option or a label the prompt gave, where the spec writes a plausible one of its training data
(bench/RESULTS.md, UI4A-Bench "missing: text"). A small additive logit on the tokens of the
designer's latest message tips the model's near-ties towards the words asked for, the way a
pointer-generator copies from its source. The grammar still decides what may come next: a
bias can only choose among the tokens it allows. Words of the schema's own vocabulary (its
keys and enum values: `button`, `table`, `open`, `danger`, ...) are not favoured: the words
are for the view's text, and a favoured `button` chose buttons where the prompt asked for
fields (bench/RESULTS.md).

vLLM's own `logit_bias` is off whenever speculative decoding is on (and ours always drafts), so
the bias travels in `SamplingParams.extra_args` and `install`, a vLLM general plugin
(pyproject.toml), adds it to the sampled rows of the logits in the model runner, the draft rows
included, before the sampler or the rejection sampler reads them: a draft is then checked
against the same biased choice the model would make without drafts.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

EXTRA_ARG = "macaron_copy_bias"
# At most this many words of a message are read, and this many tokens favoured: the cost of a
# step stays bounded whatever the message.
MAX_WORDS = 200
MAX_TOKENS = 1024
WORD = re.compile(r"[A-Za-z0-9$£€][\w$£€%'.:/-]{0,39}")
# Words every request says; favouring them would only make the labels wordier.
STOP_WORDS_TEXT = """
a an and are as at be but by can each for from has have i in into is it its me my of on or our
per should show shows so than that the their then this to us we which with you your page screen
view app want need make build create
"""
STOP_WORDS = frozenset(STOP_WORDS_TEXT.split())


def schema_words(schema: object) -> frozenset[str]:
    """Every property name and string enum or const value in a JSON schema, lower case."""
    found: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            found.update(k.lower() for k in node.get("properties", {}))
            found.update(v.lower() for v in node.get("enum", ()) if isinstance(v, str))
            if isinstance(node.get("const"), str):
                found.add(node["const"].lower())
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return frozenset(found)


def content_words(message: str, vocabulary: frozenset[str] = frozenset()) -> list[str]:
    """The message's words worth copying, first appearance first, at most MAX_WORDS; trailing
    punctuation dropped; none of STOP_WORDS or `vocabulary` (lower case)."""
    seen: dict[str, None] = {}
    for match in WORD.finditer(message[: MAX_WORDS * 40]):
        word = match.group().rstrip(".:/'-")
        if word and word.lower() not in STOP_WORDS and word.lower() not in vocabulary:
            seen.setdefault(word, None)
        if len(seen) >= MAX_WORDS:
            break
    return list(seen)


def favoured_tokens(
    encode: Callable[[str], list[int]], message: str, vocabulary: frozenset[str] = frozenset()
) -> list[int]:
    """The token ids of the message's content words as a spec would spell them: as written,
    lower case and capitalised, at a string's start and after a space."""
    ids: dict[int, None] = {}
    for word in content_words(message, vocabulary):
        for form in dict.fromkeys((word, word.lower(), word[:1].upper() + word[1:])):
            for spelled in (form, " " + form):
                ids.update(dict.fromkeys(encode(spelled)))
    return list(ids)[:MAX_TOKENS]


def extra_args(
    encode: Callable[[str], list[int]], message: str, bias: float, schema: object = None
) -> dict[str, Any]:
    """`SamplingParams.extra_args` favouring `message`'s words, other than `schema`'s own
    (schema_words), by `bias`; empty when off."""
    tokens = favoured_tokens(encode, message, schema_words(schema)) if bias > 0 else []
    return {EXTRA_ARG: {"tokens": tokens, "bias": bias}} if tokens else {}


def add_biases(logits: Any, rows: Iterable[tuple[int, int, Any]]) -> None:
    """Add each (first row, row count, sampling params) request's bias to its rows of
    `logits` in place."""
    import torch

    for first, count, params in rows:
        wanted = (getattr(params, "extra_args", None) or {}).get(EXTRA_ARG)
        if not wanted:
            continue
        index = torch.tensor(wanted["tokens"], dtype=torch.long, device=logits.device)
        logits[first : first + count, index] += float(wanted["bias"])


def sampled_rows(runner: Any, spec_decode_metadata: Any) -> Iterable[tuple[int, int, Any]]:
    """(first row, row count, sampling params) of each request in the runner's batch: a
    request's rows are its drafts' and the one after them, in batch order."""
    drafts = spec_decode_metadata.num_draft_tokens if spec_decode_metadata is not None else None
    first = 0
    for index, req_id in enumerate(runner.input_batch.req_ids):
        count = 1 + (drafts[index] if drafts is not None else 0)
        state = runner.requests.get(req_id)
        yield first, count, state.sampling_params if state is not None else None
        first += count


def _biased(sample: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(sample)
    def biased(self: Any, logits: Any, spec_decode_metadata: Any) -> Any:
        if logits is not None:
            add_biases(logits, sampled_rows(self, spec_decode_metadata))
        return sample(self, logits, spec_decode_metadata)

    return biased


def install() -> None:
    """vLLM general plugin: the model runner's sampling adds each request's copy bias; once a
    process (a forked engine core inherits its parent's)."""
    from vllm.v1.worker.gpu_model_runner import GPUModelRunner  # the CPU runner's base

    if not hasattr(GPUModelRunner._sample, "__wrapped__"):
        GPUModelRunner._sample = _biased(GPUModelRunner._sample)
