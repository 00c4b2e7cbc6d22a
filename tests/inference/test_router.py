"""The placeholder router: an explicit choice wins; otherwise visible keyword scores pick ui or
chat."""

from __future__ import annotations

import pytest

from inference.router import explicit, route


@pytest.mark.parametrize(
    ("text", "expert"),
    [
        ("a signup form with name and email", "ui"),
        ("Design a dashboard for sales", "ui"),
        ("a settings page with a dark mode checkbox", "ui"),
        ("What is a LoRA adapter?", "chat"),
        ("Hello!", "chat"),
        ("How does a login form work?", "chat"),
    ],
)
def test_it_routes_interface_requests_to_ui_and_the_rest_to_chat(text: str, expert: str) -> None:
    routing = route(text)
    assert routing.expert == expert
    assert routing.mode == "auto"
    assert routing.scores is not None
    assert routing.scores[expert] == max(routing.scores.values())
    assert routing.as_dict()["scorer"] == "keyword-placeholder"


def test_an_explicit_expert_has_no_scores() -> None:
    assert explicit("coding").as_dict() == {"expert": "coding", "mode": "explicit"}
