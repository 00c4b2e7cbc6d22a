"""Ways to run an expert's request other than as served, for UI4A-Bench's side-by-side.

The studio and the API always run the expert as installed (`trained`). The bench also asks for
the base model with no adapter and for the expert without its grammar, through the same path
(a stored generation -> Celery task -> engine; bench/variant_runs.py), so the only thing that
differs is what the variant names.
"""

from __future__ import annotations

from dataclasses import replace

from inference.protocol import GenerationRequest

DEFAULT_VARIANT = "trained"
VARIANTS = {
    "trained": "the expert as served: its installed adapter, constrained to its schema",
    "base": "the base model with no adapter, constrained to the expert's schema",
    "unconstrained": "the expert's adapter with no JSON-schema grammar",
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
    return request
