"""A head's list goes on to the items the request named (inference/serving/list_completion.py),
on the real engine as served: the ui expert's greedy tiles show every KPI a request lists. The
prompts are new ones; without the rule the expert drew two tiles of the newsletter's four and
two of the countdown's three (checked)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from inference.serving.engine import VllmEngine
from inference.serving.prompts import request_for
from inference.settings import EngineSettings
from ui4a.validate import validate

pytestmark = pytest.mark.engine

LISTED_TILES = {
    "newsletter dashboard: subscribers, open rate, click rate, unsubscribes, plus a line chart "
    "of new subscribers per week": {"subscribers", "open rate", "click rate", "unsubscribes"},
    "a countdown to the conference showing days, hours, minutes and seconds": {
        "hours",
        "minutes",
        "seconds",
    },
}


@pytest.fixture(scope="module")
def engine() -> Iterator[VllmEngine]:
    engine = VllmEngine(EngineSettings.from_env())
    assert engine.settings.list_hold
    yield engine
    engine.shutdown()


def stat_labels(node: Any) -> set[str]:
    """The labels of every stat tile in a spec's tree, lower case."""
    found: set[str] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("t") == "stat":
                found.add(str(item.get("label", "")).lower())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


@pytest.mark.parametrize("prompt", list(LISTED_TILES))
def test_tiles_go_on_to_every_kpi_the_request_lists(engine: VllmEngine, prompt: str) -> None:
    request = request_for(request_id=str(uuid.uuid4()), expert="ui", prompt=prompt, max_tokens=700)
    deltas = list(engine.stream(request))
    assert deltas[-1].finish_reason == "stop"
    spec = json.loads("".join(d.text for d in deltas))
    assert LISTED_TILES[prompt] <= stat_labels(spec["root"]), spec
    assert validate(spec) == [], spec
