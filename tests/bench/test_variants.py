"""Bench variants of a request: the base model without the adapter, the expert without grammar."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from bench.ui4a_bench.baselines import Retriever, training_examples
from bench.variants import (
    SAMPLED_TEMPERATURE,
    SAMPLED_TOP_P,
    VARIANTS,
    UnknownVariant,
    apply_variant,
)
from inference.serving.prompts import request_for


def test_trained_and_best_of_are_the_request_as_served() -> None:
    """Both run the studio's own path; best-of asks it for more drafts (bench/variant_runs.py)."""
    request = request_for(request_id="r1", expert="ui", prompt="a login form", max_tokens=50)
    assert apply_variant(request, "trained") is request
    assert apply_variant(request, "best-of") is request


def test_base_drops_the_adapter_and_keeps_prompt_and_grammar() -> None:
    request = request_for(request_id="r1", expert="ui", prompt="a login form", max_tokens=50)
    base = apply_variant(request, "base")
    assert base.expert is None
    assert base.json_schema == request.json_schema is not None
    assert base.messages == request.messages and base.max_tokens == 50


def test_unconstrained_keeps_the_adapter_and_drops_the_grammar() -> None:
    request = request_for(request_id="r1", expert="ui", prompt="a login form", max_tokens=50)
    free = apply_variant(request, "unconstrained")
    assert free.expert == "ui" and free.json_schema is None
    assert free.messages == request.messages


def test_sampled_changes_only_the_sampling() -> None:
    request = request_for(request_id="r1", expert="ui", prompt="a login form", max_tokens=50)
    sampled = apply_variant(request, "sampled")
    assert (sampled.temperature, sampled.top_p) == (SAMPLED_TEMPERATURE, SAMPLED_TOP_P)
    assert sampled.temperature > 0 and request.temperature == 0
    assert replace(sampled, temperature=0.0, top_p=1.0) == request
    assert sampled.json_schema == request.json_schema


def test_an_unknown_variant_is_refused_by_name() -> None:
    request = request_for(request_id="r1", expert="ui", prompt="a login form", max_tokens=50)
    with pytest.raises(UnknownVariant, match="unknown variant 'tiny'; use one of"):
        apply_variant(request, "tiny")
    assert set(VARIANTS) == {"trained", "best-of", "base", "unconstrained", "edit", "sampled"}


def test_edit_asks_for_the_prompt_as_a_refinement_of_the_nearest_training_example() -> None:
    request = request_for(
        request_id="r1", expert="ui", prompt="a sign up form with email and password", max_tokens=50
    )
    edit = apply_variant(request, "edit")
    system, first, answer, follow_up = edit.messages
    assert system == request.messages[0]
    assert (first.role, answer.role, follow_up.role) == ("user", "assistant", "user")
    assert follow_up.content == "a sign up form with email and password"
    nearest, _ = Retriever(training_examples()).nearest(follow_up.content)
    assert (first.content, answer.content) == (nearest.prompt, nearest.text)
    assert json.loads(answer.content)["root"]  # a whole spec, as a refinement quotes it
    assert edit.expert == "ui" and edit.json_schema == request.json_schema
