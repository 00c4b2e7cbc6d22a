"""Every WebSocket and channel-layer message type, in one place.

Channel-layer types map to consumer handlers by Channels' rule: "generation.delta" is handled
by `generation_delta`. Client messages are validated here into typed requests.
"""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs

# Client -> server, over the WebSocket.
GENERATE = "generate"
STOP = "stop"
RESYNC = "resync"

# Server -> client, over the WebSocket; delta and done also travel on the channel layer.
GENERATION_ACCEPTED = "generation.accepted"
GENERATION_DELTA = "generation.delta"
GENERATION_DONE = "generation.done"
GENERATION_SNAPSHOT = "generation.snapshot"
# How a first ui turn's drafts stand (studio/worker/candidates.py), on the project group: once
# the streamed draft ends, {"type", "generation", "drafts", "writing", "wait_s"} while others
# are still being written, then {..., "writing": 0, "kept"} (0: the streamed draft) before done.
GENERATION_DRAFTS = "generation.drafts"
# A project's current version moved (a generation, an edit, undo, redo or a revert), on the
# project group: {"type", "project", "current", "can_undo", "can_redo"}.
PROJECT_CHANGED = "project.changed"
ERROR = "error"

# The longest JSON pointer a targeted refinement may select (Generation.target's column).
TARGET_MAX_CHARS = 200


def project_group(project_id: uuid.UUID | str) -> str:
    return f"project.{project_id}"


def generation_group(generation_id: uuid.UUID | str) -> str:
    """The group of one API generation, which has no project; its HTTP request listens there."""
    return f"generation.{generation_id}"


class BadMessage(ValueError):
    """A client message that cannot be taken; `code` is stable, the text is for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True)
class GenerateRequest:
    prompt: str
    expert: str
    project: uuid.UUID | None
    # The version the prompt refines (None: start over), and the JSON pointer of the selected
    # element a targeted refinement changes ("": the whole spec).
    base: uuid.UUID | None = None
    target: str = ""
    # A new screen written as several drafts, of which the one showing most of the prompt is
    # kept (MACARON_UI_CANDIDATES); slower. Refinements write one.
    best_of: bool = False


@dataclass(frozen=True)
class StopRequest:
    generation: uuid.UUID


@dataclass(frozen=True)
class ResyncRequest:
    generation: uuid.UUID


ClientRequest = GenerateRequest | StopRequest | ResyncRequest


def project_from_query(query_string: bytes) -> uuid.UUID | None:
    values = parse_qs(query_string.decode("latin-1")).get("project", [])
    try:
        return uuid.UUID(values[0]) if values else None
    except ValueError:
        return None


def error(code: str, message: str) -> dict[str, str]:
    return {"type": ERROR, "code": code, "message": message}


def project_changed(
    *, project: uuid.UUID | str, current: uuid.UUID | str | None, can_undo: bool, can_redo: bool
) -> dict[str, Any]:
    """The project group's message after any change of its current version."""
    return {
        "type": PROJECT_CHANGED,
        "project": str(project),
        "current": str(current) if current else None,
        "can_undo": can_undo,
        "can_redo": can_redo,
    }


def decode(text: str | None, *, max_bytes: int) -> ClientRequest:
    """Parse one client frame; raise BadMessage with a clear reason for anything else."""
    if text is None:
        raise BadMessage("bad_message", "Only text frames holding JSON are accepted.")
    if len(text.encode()) > max_bytes:
        raise BadMessage("message_too_large", f"Messages are limited to {max_bytes} bytes.")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested past the parser's stack
        raise BadMessage("bad_message", "The message is not valid JSON.") from None
    if not isinstance(data, dict):
        raise BadMessage("bad_message", "The message must be a JSON object.")
    kind = data.get("type")
    if kind == GENERATE:
        return GenerateRequest(
            prompt=_string(data, "prompt"),
            expert=_string(data, "expert", default="ui"),
            project=_optional_uuid(data, "project"),
            base=_optional_uuid(data, "base"),
            target=_target(data),
            best_of=_flag(data, "best_of"),
        )
    if kind == STOP:
        return StopRequest(_required_uuid(data, "generation"))
    if kind == RESYNC:
        return ResyncRequest(_required_uuid(data, "generation"))
    raise BadMessage("unknown_type", f"Unknown message type {str(kind)[:40]!r}.")


def _string(data: dict[str, Any], key: str, default: str | None = None) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise BadMessage("bad_message", f"'{key}' must be a string.")
    return value


def _flag(data: dict[str, Any], key: str) -> bool:
    value = data.get(key, False)
    if not isinstance(value, bool):
        raise BadMessage("bad_message", f"'{key}' must be true or false.")
    return value


def _target(data: dict[str, Any]) -> str:
    target = data.get("target")
    if target is None:
        return ""
    if not isinstance(target, str):
        raise BadMessage("bad_message", "'target' must be a JSON pointer string.")
    if len(target) > TARGET_MAX_CHARS:
        raise BadMessage(
            "bad_message", f"'target' is a JSON pointer of at most {TARGET_MAX_CHARS} characters."
        )
    return target


def _required_uuid(data: dict[str, Any], key: str) -> uuid.UUID:
    value = _optional_uuid(data, key)
    if value is None:
        raise BadMessage("bad_message", f"'{key}' is required.")
    return value


def _optional_uuid(data: dict[str, Any], key: str) -> uuid.UUID | None:
    value = data.get(key)
    if value in (None, ""):
        return None
    try:
        return uuid.UUID(str(value))
    except ValueError:
        raise BadMessage("bad_message", f"'{key}' is not a valid id.") from None
