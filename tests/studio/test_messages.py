"""The WebSocket message contract: every bad frame gets a stable code and a clear message."""

from __future__ import annotations

import json
import uuid

import pytest

from studio import messages


def decode(data: object) -> object:
    return messages.decode(json.dumps(data), max_bytes=1000)


def test_it_decodes_a_generate_request_with_the_ui_expert_by_default() -> None:
    request = decode({"type": "generate", "prompt": "a login form"})
    assert request == messages.GenerateRequest("a login form", "ui", None)


def test_it_decodes_a_refinement_of_a_version_and_a_selected_element() -> None:
    project, base = uuid.uuid4(), uuid.uuid4()
    request = decode(
        {
            "type": "generate",
            "project": str(project),
            "prompt": "make this a bar chart",
            "expert": "ui",
            "base": str(base),
            "target": "/root/c/1/c/0",
        }
    )
    assert request == messages.GenerateRequest(
        "make this a bar chart", "ui", project, base=base, target="/root/c/1/c/0"
    )


def test_start_over_is_a_generate_without_a_base_or_target() -> None:
    request = decode({"type": "generate", "prompt": "x", "base": None, "target": ""})
    assert request == messages.GenerateRequest("x", "ui", None, base=None, target="")


def test_a_generate_may_ask_for_the_best_of_several_drafts() -> None:
    asked = decode({"type": "generate", "prompt": "x", "best_of": True})
    assert asked == messages.GenerateRequest("x", "ui", None, best_of=True)
    assert decode({"type": "generate", "prompt": "x"}) == messages.GenerateRequest("x", "ui", None)


def test_it_decodes_a_stop_request() -> None:
    generation = uuid.uuid4()
    assert decode({"type": "stop", "generation": str(generation)}) == messages.StopRequest(
        generation
    )


def test_project_changed_names_the_current_version_and_what_undo_and_redo_may_do() -> None:
    project, current = uuid.uuid4(), uuid.uuid4()
    message = messages.project_changed(
        project=project, current=current, can_undo=True, can_redo=False
    )
    assert message == {
        "type": "project.changed",
        "project": str(project),
        "current": str(current),
        "can_undo": True,
        "can_redo": False,
    }
    # Channels calls the consumer's handler named after the type.
    assert message["type"].replace(".", "_") == "project_changed"


def test_it_decodes_a_resync_request() -> None:
    generation = uuid.uuid4()
    assert decode({"type": "resync", "generation": str(generation)}) == messages.ResyncRequest(
        generation
    )


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (None, "bad_message"),
        ("not json", "bad_message"),
        ("[1, 2]", "bad_message"),
        ('{"type": "explode"}', "unknown_type"),
        ('{"type": "generate", "prompt": 42}', "bad_message"),
        ('{"type": "generate", "prompt": "x", "project": "nope"}', "bad_message"),
        ('{"type": "resync"}', "bad_message"),
        ('{"type": "stop"}', "bad_message"),
        ('{"type": "stop", "generation": "nope"}', "bad_message"),
        ('{"type": "generate", "prompt": "x", "base": "v1"}', "bad_message"),
        ('{"type": "generate", "prompt": "x", "target": 3}', "bad_message"),
        ('{"type": "generate", "prompt": "x", "best_of": "yes"}', "bad_message"),
        (
            '{"type": "generate", "prompt": "x", "target": "/root' + "/c/0" * 60 + '"}',
            "bad_message",
        ),
        ('{"type": "generate", "prompt": "' + "x" * 2000 + '"}', "message_too_large"),
    ],
)
def test_it_refuses_bad_frames_with_a_code(frame: str | None, code: str) -> None:
    with pytest.raises(messages.BadMessage) as raised:
        messages.decode(frame, max_bytes=1000)
    assert raised.value.code == code
    assert str(raised.value)


def test_it_reads_the_project_from_the_query_string() -> None:
    project = uuid.uuid4()
    assert messages.project_from_query(f"project={project}".encode()) == project
    assert messages.project_from_query(b"project=garbage") is None
    assert messages.project_from_query(b"") is None
