"""The router: an explicit choice wins; otherwise a MiniLM nearest-centroid classifier picks one of
the four experts and reports a probability for each. Latency lives in `bench/router.py`."""

from __future__ import annotations

import json

import numpy as np
import pytest

from inference import router
from inference.protocol import Message
from inference.router import RoutingDecision, explicit, route


@pytest.mark.parametrize(
    ("text", "expert"),
    [
        ("a signup form with name and email", "ui"),
        ("Design a dashboard for sales", "ui"),
        ("a settings page with a dark mode checkbox", "ui"),
        ("What is a LoRA adapter?", "chat"),
        ("Hello! How are you doing today?", "chat"),
        ("why do cats purr", "chat"),
        ("Write a Python quicksort function", "coding"),
        ("pyhton func to parse a date string, with tests pls", "coding"),
        ("book me a flight to Madrid on monday and email the receipt to my boss", "agent"),
        ("use the search tool to find today's top headline and post it to slack", "agent"),
    ],
)
def test_it_routes_obvious_prompts_to_their_expert(text: str, expert: str) -> None:
    routing = route(text)
    assert routing.expert == expert
    assert routing.mode == "auto"
    assert routing.scores is not None
    assert routing.scores[expert] == max(routing.scores.values())


def test_it_reports_a_probability_for_every_expert() -> None:
    routing = route("make me a login screen")
    assert routing.scores is not None
    assert set(routing.scores) == {"chat", "agent", "coding", "ui"}
    assert all(0 <= score <= 1 for score in routing.scores.values())
    assert sum(routing.scores.values()) == pytest.approx(1, abs=1e-3)
    assert routing.as_dict() == {
        "expert": "ui",
        "mode": "auto",
        "scores": routing.scores,
        "scorer": "minilm-centroid",
    }


def test_it_routes_on_the_last_user_message() -> None:
    messages = [
        Message("system", "You write Python."),
        Message("user", "Write a function that reverses a string"),
        Message("assistant", "def rev(s): return s[::-1]"),
        Message("user", "now a pricing page with three plans and a buy button"),
    ]
    assert route(messages).expert == "ui"


def test_an_explicit_router_wins_and_has_no_scores() -> None:
    routing = route("a signup form with name and email", router="coding")
    assert isinstance(routing, RoutingDecision)
    assert routing.as_dict() == {"expert": "coding", "mode": "explicit"}
    assert explicit("coding") == routing


def test_it_keeps_every_dev_prompt_out_of_training() -> None:
    train = {text.lower() for text, _ in router.load_prompts("train")}
    dev = router.load_prompts("dev")
    assert len(dev) >= 300
    assert not [text for text, _ in dev if text.lower() in train]


def test_it_has_balanced_labelled_sets_over_all_experts() -> None:
    for name in ("train", "dev"):
        labels = [expert for _, expert in router.load_prompts(name)]
        counts = {expert: labels.count(expert) for expert in router.EXPERT_ORDER}
        assert set(labels) == set(router.EXPERT_ORDER)
        assert max(counts.values()) == min(counts.values()), (name, counts)


def test_it_serves_centroids_fitted_on_the_current_training_set() -> None:
    classifier = router._classifier()
    assert classifier.train_sha256 == router.train_sha256(), "run: python -m inference.router fit"
    assert classifier.centroids.shape == (len(router.EXPERT_ORDER), 384)
    assert np.allclose(np.linalg.norm(classifier.centroids, axis=1), 1, atol=1e-5)


def test_it_rebuilds_the_same_data_files() -> None:
    from inference.offline import router_prompts

    for name, rows in zip(("train", "dev"), router_prompts.build(), strict=True):
        written = (router.DATA / f"{name}.jsonl").read_text().splitlines()
        assert [json.loads(line) for line in written] == rows
