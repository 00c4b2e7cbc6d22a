"""What bench/engine.py measures and how, shared by our engine's side and the transformers + peft
reference (bench/engine_reference.py, a process of its own), so both use one workload and one
timing window.

Every stream is timed from submission (before the chat template and tokenizer run) to its last
token, prefill included: that end-to-end rate is the headline. The decode-only rate, from the
first token to the last, is kept beside it for the bandwidth ceiling, which bounds decode only.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

from inference.experts import EXPERTS

# Single-stream prompt: the same for every expert and the base model.
PROMPT = "Describe, in detail, how a web browser renders a page, step by step."

# Eight mixed streams, two per expert, each with a prompt of its own so no stream reuses
# another's cached prefix (our engine's prefix cache is also cleared before each measurement).
MIXED_PROMPTS = (
    "Describe, in detail, how a web browser renders a page, step by step.",
    "Explain how a hash map handles collisions, with an example in Python.",
    "Plan the steps to book a train trip from Paris to Berlin for two people.",
    "Design a settings screen for a mobile banking app: list every section.",
    "Tell me about the history of the bicycle, from its invention to today.",
    "Write a function that merges two sorted lists, and explain its cost.",
    "List the tools you would call to find a cheap hotel near a conference.",
    "Describe a dashboard for a bakery owner: sales, stock and staff shifts.",
)
MIXED_EXPERTS = tuple(sorted(EXPERTS)[i % len(EXPERTS)] for i in range(len(MIXED_PROMPTS)))
MIXED = "8 mixed streams"

# Every figure has one key: "<side>/<what>", `what` being "base", an expert, or MIXED.
SIDES = {
    "ours": "our engine (inference/ as deployed)",
    "vllm_as_it_comes": "vLLM's own CPU LoRA path and worker process",
    "transformers": "transformers + peft, one stream",
    "merged": "transformers, adapter merged into the weights (merge_and_unload), one stream",
    "peft_batched": "transformers + peft, one batch mixing adapters (adapter_names)",
}


@dataclass(frozen=True)
class Window:
    """One stream, or a batch of streams, as a clock saw it (perf_counter seconds)."""

    submitted: float
    last_first_token: float  # for a batch: when the slowest stream produced its first token
    finished: float
    tokens: int  # generated, all streams together
    tokens_after_first: int  # generated after `last_first_token`

    def rates(self) -> dict[str, float]:
        return {
            "end_to_end_tok_s": round(self.tokens / (self.finished - self.submitted), 3),
            "decode_tok_s": round(
                self.tokens_after_first / (self.finished - self.last_first_token), 3
            ),
            "seconds": round(self.finished - self.submitted, 3),
            "tokens": self.tokens,
        }


def merge(windows: list[Window], token_times: list[list[float]]) -> Window:
    """Streams run together as one window: submitted with the first, finished with the last;
    `token_times` holds, per stream, when each of its tokens arrived."""
    last_first = max(times[0] for times in token_times)
    return Window(
        submitted=min(w.submitted for w in windows),
        last_first_token=last_first,
        finished=max(w.finished for w in windows),
        tokens=sum(w.tokens for w in windows),
        tokens_after_first=sum(1 for times in token_times for t in times if t > last_first),
    )


def spread(values: list[float]) -> dict[str, float]:
    return {
        "min": round(min(values), 3),
        "median": round(float(statistics.median(values)), 3),
        "max": round(max(values), 3),
    }
