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
