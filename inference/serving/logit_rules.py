"""The one hook into vLLM's sampling: the rules a UI4A spec's requests ask for, run on each
step's logits in the model runner, after the grammar's mask and before the sampler or the
rejection sampler reads them, on every row of a request, drafts included (step_rows.py).

In order:
1. a string ended where the model meant to end it (closing_quote.py, the stages after the head);
2. no word a third time in a row (word_loop.py, every stage);
3. a head's tab switch held to its tabs' labels (tab_switch.py), its identifier fields to a
   text kind (identifier_kind.py), and a question's choices to radios (choice_kind.py);
4. the request's words favoured (copy_bias.py);
5. a head steered off copying a child (copy_steer.py);
6. a head's list gone on to the request's items it left out, the fields and buttons it names
   drawn, and its page kept with room for the dialogs it is to draw (list_completion.py,
   field_completion.py, button_completion.py, page_room.py), last: it reads the best token the
   others leave.
A request asks for each in its `SamplingParams.extra_args`; one that asks for none (a chat, a
tool call) is left alone.

`install` is a vLLM general plugin (pyproject.toml): vLLM loads it in every process it starts,
and a forked engine core inherits it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

from inference.serving import closing_quote
from inference.serving.choice_kind import hold_choices
from inference.serving.closing_quote import asking_rows, end_strings, noted_best
from inference.serving.copy_bias import add_biases, sampled_rows
from inference.serving.copy_steer import steer_batch
from inference.serving.identifier_kind import hold_identifiers
from inference.serving.list_completion import hold_lists
from inference.serving.step_rows import Strings, batch_rows, kept_in_batch, token_strings
from inference.serving.tab_switch import hold_switches
from inference.serving.word_loop import forbid_loops

log = logging.getLogger(__name__)


def apply_rules(runner: Any, logits: Any, spec_decode_metadata: Any) -> None:
    """Run the rules the batch's requests ask for on `logits`, in place."""

    def strings() -> Strings:
        return token_strings(runner.model_config.tokenizer)

    batch = list(batch_rows(runner, spec_decode_metadata))
    end_strings(logits, noted_best(runner.input_batch), strings, asking_rows(len(logits), batch))
    forbid_loops(logits, batch, strings)
    hold_switches(logits, batch, kept_in_batch(runner, "macaron_tab_switch_texts"), strings)
    hold_identifiers(logits, batch, kept_in_batch(runner, "macaron_identifier_texts"), strings)
    hold_choices(logits, batch, kept_in_batch(runner, "macaron_choice_texts"), strings)
    add_biases(logits, sampled_rows(runner, batch, strings))
    steer_batch(logits, batch, kept_in_batch(runner, "macaron_copy_steer_states"), strings)
    hold_lists(logits, batch, kept_in_batch(runner, "macaron_list_watches"), strings)


def guarded(sample: Callable[..., Any]) -> Callable[..., Any]:
    """The model runner's `_sample`, with the rules run first."""

    @functools.wraps(sample)
    def ruled(self: Any, logits: Any, spec_decode_metadata: Any) -> Any:
        if logits is not None:
            try:
                apply_rules(self, logits, spec_decode_metadata)
            except Exception:
                # They only tip the model's choices; a fault in them must not kill the engine
                # core, and every generation in the batch with it (a -1 draft once did).
                log.exception("a logit rule failed; this step is sampled as it stood")
        return sample(self, logits, spec_decode_metadata)

    return ruled


def install() -> None:
    """Wrap the model runner's sampling, and its grammar mask (closing_quote.py); once a
    process."""
    from vllm.v1.worker.gpu_model_runner import GPUModelRunner  # the CPU runner's base

    if not hasattr(GPUModelRunner._sample, "__wrapped__"):
        GPUModelRunner._sample = guarded(GPUModelRunner._sample)
    closing_quote.install()
