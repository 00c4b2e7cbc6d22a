"""Ways to run an expert's request other than as served, for UI4A-Bench's side-by-side.

The studio and the API always run the expert as installed (`trained`). The bench also asks for
the base model with no adapter and for the expert without its grammar, through the same path
(a stored generation -> Celery task -> engine; bench/variant_runs.py), so the only thing that
differs is what the variant names.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from inference.protocol import GenerationRequest, Message

if TYPE_CHECKING:
    from bench.ui4a_bench.baselines import Retriever

DEFAULT_VARIANT = "trained"
BEST_OF_VARIANT = "best-of"
SAMPLED_TEMPERATURE = 0.7
SAMPLED_TOP_P = 0.95
VARIANTS = {
    "trained": (
        "the expert as served: its installed adapter, constrained to its schema, one greedy "
        "draft (a studio turn unless the designer asks for the best of several)"
    ),
    "best-of": (
        "the expert as served to a designer who ticks 'Best of 3 drafts': the greedy draft and "
        "sampled ones (MACARON_UI_CANDIDATES in all), the one showing most of the prompt kept"
    ),
    "base": "the base model with no adapter, constrained to the expert's schema",
    "unconstrained": "the expert's adapter with no JSON-schema grammar",
    "edit": (
        "retrieve-then-edit, untrained for it: the expert as served, asked for the prompt as a "
        "refinement of the nearest training example (its prompt, then its spec)"
    ),
    "sampled": (
        f"the expert as served, sampled at temperature {SAMPLED_TEMPERATURE} (top-p "
        f"{SAMPLED_TOP_P}) rather than greedy: one draw of the candidates a best-of-n picks from"
    ),
}


class UnknownVariant(ValueError):
    """No variant of that name."""


def check_variant(name: str) -> str:
    if name not in VARIANTS:
        raise UnknownVariant(f"unknown variant {name!r}; use one of {', '.join(VARIANTS)}")
    return name


def apply_variant(request: GenerationRequest, variant: str) -> GenerationRequest:
    """The request the variant runs: the same prompt, without the adapter or the grammar."""
    check_variant(variant)
    if variant == "base":
        return replace(request, expert=None, adapter=None)
    if variant == "unconstrained":
        return replace(request, json_schema=None)
    if variant == "edit":
        return retrieved_edit(request)
    if variant == "sampled":
        return replace(request, temperature=SAMPLED_TEMPERATURE, top_p=SAMPLED_TOP_P)
    return request


def retrieved_edit(request: GenerationRequest) -> GenerationRequest:
    """The request as the second turn of a refinement, in the shape the ui dataset trains
    (`inference.serving.prompts.refine_request_for`): the nearest training prompt (retrieval's
    pick, the `retrieval` baseline), its spec as the expert's answer, then the prompt."""
    system, *turns = request.messages
    prompt = turns[-1].content
    example, _ = _retriever().nearest(prompt)
    first_turn = (Message("user", example.prompt), Message("assistant", example.text))
    return replace(request, messages=(system, *first_turn, Message("user", prompt)))


@cache
def _retriever() -> Retriever:
    # Built once per worker process, from the dataset builder (about 12 s).
    from bench.ui4a_bench.baselines import Retriever, training_examples

    return Retriever(training_examples())
