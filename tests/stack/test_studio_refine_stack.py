"""Conversation on the real stack (Redis, a Celery worker with the vLLM engine and the trained ui
expert, Daphne), over a signed-in WebSocket: generate, refine, refine one selected element, and
stop a generation."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

import pytest

from studio.stack import Stack
from tests.stack.conftest import StudioClient, stack_shell
from ui4a.tree import pointer, walk

pytestmark = pytest.mark.stack

VERSION_SPECS = """
import json
from studio.models import Version
versions = Version.objects.filter(project_id={project!r}).order_by("number")
print(json.dumps([[v.number, v.kind, str(v.parent_id), v.spec] for v in versions]))
"""


def versions_of(stack: Stack, project: str) -> list[list[Any]]:
    found: list[list[Any]] = json.loads(stack_shell(stack, VERSION_SPECS.format(project=project)))
    return found


def ask(client: StudioClient, prompt: str, **fields: Any) -> dict[str, Any]:
    client.send({"type": "generate", "prompt": prompt, "expert": "ui", **fields})
    # The previous turn's project.changed may come first.
    while (accepted := client.receive())["type"] == "project.changed":
        pass
    assert accepted["type"] == "generation.accepted", accepted
    done = client.until_done(accepted["generation"])[-1]
    assert done["status"] == "done", done
    assert done["version"] is not None, done
    return done


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def test_it_generates_refines_and_refines_one_element_keeping_the_rest(
    stack: Stack, studio_client: StudioClient
) -> None:
    first = ask(studio_client, "a sales dashboard with a bar chart of revenue by month")
    project = first["project"]
    assert (first["version"]["number"], first["version"]["kind"]) == (1, "generated")

    second = ask(
        studio_client,
        'change the title to "Quarterly sales" and add a table of the same data',
        project=project,
        base=first["version"]["id"],
        target="",
    )
    assert (second["version"]["number"], second["version"]["kind"]) == (2, "refined")
    versions = versions_of(stack, project)
    assert [v[:2] for v in versions] == [[1, "generated"], [2, "refined"]]
    assert versions[1][2] == first["version"]["id"]  # its parent
    assert versions[1][3] != versions[0][3]  # the refinement changed the view

    # Select the chart (or, if the model drew none, the first element) and refine only it.
    base = versions[1][3]
    refs = [ref for ref in walk(base) if ref.depth > 0]
    chosen = next((ref for ref in refs if ref.node.get("t") == "chart"), refs[0])
    third = ask(
        studio_client,
        "make this a line chart" if chosen.node.get("t") == "chart" else "make this bigger",
        project=project,
        base=second["version"]["id"],
        target=pointer(chosen.path),
    )
    assert (third["version"]["number"], third["version"]["kind"]) == (3, "targeted")
    revised = versions_of(stack, project)[2][3]

    # Everything outside the selected element is byte for byte the same.
    *parent_path, index = chosen.path
    assert isinstance(index, int)
    before, after = copy.deepcopy(base), copy.deepcopy(revised)
    parent_before, parent_after = _at(before, parent_path), _at(after, parent_path)
    inserted = len(parent_after) - len(parent_before) + 1
    assert inserted >= 1
    del parent_before[index]
    del parent_after[index : index + inserted]
    for key in ("title", "theme", "root"):
        assert compact(after.get(key)) == compact(before.get(key)), key
    assert set(before.get("state", {})) <= set(after.get("state", {}))  # no state key lost
    assert set(before.get("data", {})) <= set(after.get("data", {}))


def test_stop_cancels_a_generation_while_it_streams(
    stack: Stack, studio_client: StudioClient
) -> None:
    studio_client.send(
        {
            "type": "generate",
            "prompt": "a long settings page with many sections, inputs, switches and tables",
            "expert": "ui",
        }
    )
    while (accepted := studio_client.receive())["type"] == "project.changed":
        pass
    assert accepted["type"] == "generation.accepted", accepted
    while (frame := studio_client.receive())["type"] != "generation.delta":
        assert frame["type"] != "generation.done", frame
    studio_client.send({"type": "stop", "generation": accepted["generation"]})
    stopped_at = time.monotonic()
    done = studio_client.until_done(accepted["generation"])[-1]
    assert time.monotonic() - stopped_at < 5
    assert done["status"] == "cancelled"
    assert done["version"] is None
    assert versions_of(stack, accepted["project"]) == []


def _at(spec: dict[str, Any], path: list[str | int]) -> Any:
    value: Any = spec
    for step in path:
        value = value[step]
    return value
