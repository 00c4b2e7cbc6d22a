"""A head draws the buttons the request names (inference/serving/button_completion.py), on the
real engine as served: the ui expert's greedy spec has a button labelled as the request says.
The prompts are new ones; without the rule the expert drew neither button (checked)."""

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

NAMED_BUTTONS = {
    "a library desk: a table of loans with book, member and due date, a search box, plus a "
    "Renew all button": "renew all",
    "team roster table with name, role and email, plus an Invite member button": "invite member",
}


@pytest.fixture(scope="module")
def engine() -> Iterator[VllmEngine]:
    engine = VllmEngine(EngineSettings.from_env())
    assert engine.settings.button_hold
    yield engine
    engine.shutdown()


def button_labels(node: Any) -> list[str]:
    """Every button's label and form's submit in a spec's tree, lower case."""
    found: list[str] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if item.get("t") == "button":
                found.append(str(item.get("label", "")).lower())
            if item.get("t") == "form":
                found.append(str(item.get("submit", "")).lower())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


@pytest.mark.parametrize("prompt", list(NAMED_BUTTONS))
def test_a_button_the_request_names_is_drawn(engine: VllmEngine, prompt: str) -> None:
    request = request_for(request_id=str(uuid.uuid4()), expert="ui", prompt=prompt, max_tokens=700)
    deltas = list(engine.stream(request))
    assert deltas[-1].finish_reason == "stop"
    spec = json.loads("".join(d.text for d in deltas))
    assert any(NAMED_BUTTONS[prompt] in label for label in button_labels(spec["root"])), spec
    assert validate(spec) == [], spec
