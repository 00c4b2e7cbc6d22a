"""The copy steer on the real engine (inference/serving/copy_steer.py): a dashboard whose
head writes a KPI tile of its own again, verbatim, where the request named three, writes the
ones asked for when steered. Without the steer it writes its own tile again, which the head
hides (the second test holds it to that, so the first cannot pass by the prompt alone)."""

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

# A dev-set screen, picked for what the served ui adapter writes (a new adapter may need
# another): unsteered, one "Kettle energy" tile.
PROMPT = (
    "energy usage dashboard for a home: today's kWh, cost this month, solar generated, plus an "
    "area chart showing hourly use"
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
    assert any("solar" in label for label in labels), labels
    assert any("cost" in label for label in labels), labels


def test_unsteered_the_tiles_asked_for_are_missing(engine: VllmEngine) -> None:
    """It writes its own tile again instead, which the head then hides."""
    labels = [label.lower() for label in stat_labels(engine, 0.0)]
    assert not any("solar" in label or "cost" in label for label in labels), labels
