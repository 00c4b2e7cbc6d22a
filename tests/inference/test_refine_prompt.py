"""The refinement request: the same conversation the ui dataset's refinement turns train on."""

from __future__ import annotations

import json
from random import Random

import pytest

from inference.offline.datasets.ui import composed
from inference.protocol import Message
from inference.serving.prompts import RefinementTooLarge, refine_request_for, ui_system_prompt


def test_a_refinement_is_sent_as_the_training_set_shows_it() -> None:
    records = [r for r in composed(Random(7), 40, 1.0) if r["kind"].endswith("/refine")]
    assert records
    for record in records[:10]:
        first, answer, ask, _revised = record["messages"]
        request = refine_request_for(
            request_id="r",
            expert="ui",
            first_prompt=first["content"],
            spec=json.loads(answer["content"]),
            instruction=ask["content"],
            max_tokens=700,
            max_spec_chars=100_000,
        )
        assert request.messages == (
            Message("system", ui_system_prompt()),
            *(Message(m["role"], m["content"]) for m in (first, answer, ask)),
        )
        assert request.json_schema is not None  # the answer decodes under the schema
        assert request.expert == "ui"


def test_a_spec_too_large_for_the_context_is_refused_with_its_size() -> None:
    spec = {"root": {"t": "page", "c": [{"t": "text", "text": "x" * 500}]}}
    with pytest.raises(RefinementTooLarge, match=r"5\d\d characters of spec.*at most 400"):
        refine_request_for(
            request_id="r",
            expert="ui",
            first_prompt="a note",
            spec=spec,
            instruction="shorter",
            max_tokens=700,
            max_spec_chars=400,
        )
