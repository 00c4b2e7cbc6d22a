"""The copy steer on the real engine (inference/serving/copy_steer.py): a screen whose head
writes a tile of its own where the request named another writes the one asked for when
steered. Without the steer it writes its own (the second test holds it to that, so the first
cannot pass by the prompt alone)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from inference.serving.engine import VllmEngine
from inference.serving.prompts import request_for
from inference.settings import EngineSettings

pytestmark = pytest.mark.engine

# A dev-set screen (calendar-02), picked for what the served ui adapter writes (a new adapter
# may need another): unsteered, its tiles are "Day 7-19" and "Day 19-7", no night shift.
PROMPT = (
    "weekly agenda for a nurse: Monday to Sunday columns with shift times (Day 7-19, Night 19-7, "
    "Off)"
)


@pytest.fixture(scope="module")
def engine() -> Iterator[VllmEngine]:
    engine = VllmEngine(EngineSettings.from_env())
    yield engine
    engine.shutdown()


def stat_labels(engine: VllmEngine, steer: float) -> list[str]:
    engine.settings = replace(engine.settings, copy_steer=steer)  # read per request
    request = request_for(request_id=str(uuid.uuid4()), expert="ui", prompt=PROMPT, max_tokens=700)
    deltas = list(engine.stream(request))
    assert deltas[-1].finish_reason == "stop"
    spec: dict[str, Any] = json.loads("".join(d.text for d in deltas))
    labels: list[str] = []
    stack: list[Any] = [spec["root"]]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if node.get("t") == "stat":
                labels.append(node.get("label", ""))
            stack.extend(node.get("c", []))
    return labels


def test_steered_the_tiles_are_the_ones_asked_for(engine: VllmEngine) -> None:
    labels = [label.lower() for label in stat_labels(engine, 8.0)]
    assert len(set(labels)) == len(labels) >= 3, labels
    assert "night 19-7" in labels and "day 7-19" in labels, labels


def test_unsteered_the_tiles_asked_for_are_missing(engine: VllmEngine) -> None:
    """It writes a day shift of its own instead."""
    labels = [label.lower() for label in stat_labels(engine, 0.0)]
    assert not any("night" in label for label in labels), labels
