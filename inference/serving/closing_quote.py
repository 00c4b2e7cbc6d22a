"""A string ended where the model meant to end it, when the grammar forbids how it goes on.

In a spec's tail the model often wants `","` right after a state key's opening quote: an empty
value, then another key. Where the tree declared no more keys, the grammar forbids that token,
and the model's best allowed one was `','`: a quote-like character inside the string, after
which it wrote junk up to the string's length limit (`"coupon":"','saved':false}}user 2026-"`,
3 or 4 of the 150 dev specs a run, and a showcase run's reading list; bench/RESULTS.md, 2026-12-06,
02:55). A token such as `","` ends the string it is written in and goes on with the JSON around
it, so where a row's best token before the grammar's mask is one and is forbidden, and a lone
double quote is allowed, the row is left only that: the string ends as the model meant, and the
grammar takes it on from there. A quote before a letter (`"label`, a key the schema may not
have) opens a string rather than ending one, and is left to the grammar.

Only the stages after the head ask (a dialog the head opened, the state, the data): in the head,
a markdown text the model meant to end where its component allows no more keys went on, with
the rule, to a different page, and one dev-set spec (inbox-04) came out invalid in both runs.

Two hooks in the model runner: vLLM's `apply_grammar_bitmask` is wrapped to note each row's best
token before it masks the logits (on the runner's input batch, for this step only), and the
sampling hook (logit_rules.py) ends the strings, since it knows the tokens' texts. A step
without structured output never masks, and nothing is noted.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

from inference.serving.step_rows import Row, Strings, asked

EXTRA_ARG = "macaron_end_strings"
NOTED = "macaron_best_before_mask"
QUOTE = '"'
ENDS_A_STRING = re.compile(r'"\s*[,:}\]]')


def noting_best(apply: Callable[..., None]) -> Callable[..., None]:
    """`apply_grammar_bitmask`, noting each row's best token before the mask."""

    @functools.wraps(apply)
    def masked(scheduler_output: Any, grammar_output: Any, input_batch: Any, logits: Any) -> None:
        setattr(input_batch, NOTED, logits.argmax(dim=-1))
        apply(scheduler_output, grammar_output, input_batch, logits)

    return masked


@functools.lru_cache(maxsize=4)
def string_enders(vocab_size: int, strings: Strings) -> Any:
    """A mask over the vocabulary: the tokens that end a string and go on with the JSON around
    it (`","`, `"}`, `"]`, `":`). A quote before a letter (`"label`) opens a key; those are left
    to the grammar."""
    import torch

    return torch.tensor([bool(ENDS_A_STRING.match(strings(t))) for t in range(vocab_size)])


@functools.lru_cache(maxsize=4)
def quote_token(strings: Strings, vocab_size: int) -> int | None:
    """The token that is a lone double quote, if the vocabulary has one."""
    return next((t for t in range(vocab_size) if strings(t) == QUOTE), None)


def request_args() -> dict[str, Any]:
    """`SamplingParams.extra_args` that ask for strings ended where the model meant."""
    return {EXTRA_ARG: True}


def asking_rows(rows: int, batch: Iterable[Row]) -> Any:
    """A mask over a step's `rows`: those of the requests that ask."""
    import torch

    asking = torch.zeros(rows, dtype=torch.bool)
    for _, state, first, count, _ in batch:
        if asked(state, EXTRA_ARG):
            asking[first : first + count] = True
    return asking


def end_strings(logits: Any, best: Any, read: Callable[[], Strings], asking: Any) -> int:
    """Leave only the lone double quote in each row that asks (`asking`) whose best token before
    the mask (`best`) ended a string (string_enders) and is masked out, where the quote is
    allowed; how many rows. `read` gives the tokens' texts, asked for only where a best token
    was masked out."""
    import torch

    if best is None or best.shape[0] != logits.shape[0] or not bool(asking.any()):
        return 0
    rows = torch.arange(logits.shape[0], device=logits.device)
    forbidden = torch.isneginf(logits[rows, best]) & asking.to(logits.device)
    if not bool(forbidden.any()):
        return 0
    strings = read()
    quote = quote_token(strings, logits.shape[1])
    if quote is None:
        return 0
    enders = string_enders(logits.shape[1], strings).to(logits.device)
    meant = forbidden & enders[best] & ~torch.isneginf(logits[:, quote])
    if not bool(meant.any()):
        return 0
    kept = logits[meant, quote]
    logits[meant] = float("-inf")
    logits[meant, quote] = kept
    return int(meant.sum())


def noted_best(input_batch: Any) -> Any:
    """This step's best tokens before the mask, once: None where the step had no mask."""
    best = getattr(input_batch, NOTED, None)
    setattr(input_batch, NOTED, None)
    return best


def install() -> None:
    """Wrap the model runner's grammar mask (once a process)."""
    from vllm.v1.worker import gpu_model_runner

    if not hasattr(gpu_model_runner.apply_grammar_bitmask, "__wrapped__"):
        gpu_model_runner.apply_grammar_bitmask = noting_best(gpu_model_runner.apply_grammar_bitmask)
