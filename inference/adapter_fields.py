"""The typed fields of an adapter's files, checked before anything reads them: peft's config
(`r`, `target_modules`) and the Macaron manifest. Registration stores the manifest and later
code reads its fields (`purpose`, `structured`, `system_prompt`, the training summary), so a
wrong type must be refused here, by name, rather than fail later as a server error."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

# Larger files are not adapter metadata; the manifest is stored in the database whole.
MAX_JSON_BYTES = 1 << 20

_TEXT = (
    "expert",
    "purpose",
    "system_prompt",
    "base_sha256",
    "base_weights_sha256",
    "dataset_sha256",
    "warm_start_sha256",
    "reproduce",
    "history",
)
_FLAGS = ("trained", "structured")
_COUNTS = ("rank", "dataset_examples")
_TABLES = ("hyperparameters", "metrics")


class FieldInvalid(ValueError):
    """A field of an adapter's files has the wrong type or value; the message names it."""


def read_json_object(path: Path, what: str) -> dict[str, Any]:
    """A small JSON object from `path`, with NaN and Infinity refused (the database's JSON
    columns refuse them, so they would fail the save instead)."""
    if not path.is_file():
        raise FieldInvalid(f"{path.name} is missing: {what}")
    if path.stat().st_size > MAX_JSON_BYTES:
        raise FieldInvalid(f"{path} is larger than {MAX_JSON_BYTES} bytes")
    try:
        data = json.loads(path.read_text(), parse_constant=_refuse_constant)
    except (json.JSONDecodeError, UnicodeDecodeError, ValueError) as exc:
        raise FieldInvalid(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise FieldInvalid(f"{path} is not a JSON object")
    return data


def config_rank(config: dict[str, Any]) -> int:
    return _count(config, "r", "adapter_config.json")


def config_targets(config: dict[str, Any]) -> list[str]:
    targets = config.get("target_modules") or []
    if isinstance(targets, str):
        raise FieldInvalid(f"target_modules is a pattern ({targets[:80]!r}); list the modules")
    if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
        raise FieldInvalid("adapter_config.json: target_modules must be a list of module names")
    return targets


def check_manifest(manifest: dict[str, Any]) -> None:
    """Refuse a manifest whose known fields have the wrong type; unknown fields pass."""
    where = "macaron-manifest.json"
    for key in _TEXT:
        if key in manifest and not isinstance(manifest[key], str):
            raise FieldInvalid(f"{where}: {key} must be text, not {_shown(manifest[key])}")
    for key in _FLAGS:
        if key in manifest and not isinstance(manifest[key], bool):
            raise FieldInvalid(f"{where}: {key} must be true or false, not {_shown(manifest[key])}")
    for key in _COUNTS:
        if key in manifest:
            _count(manifest, key, where)
    for key in _TABLES:
        if key in manifest and not isinstance(manifest[key], dict):
            raise FieldInvalid(f"{where}: {key} must be an object, not {_shown(manifest[key])}")
    if "target_modules" in manifest:
        targets = manifest["target_modules"]
        if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
            raise FieldInvalid(f"{where}: target_modules must be a list of module names")


def _count(data: dict[str, Any], key: str, where: str) -> int:
    value = data.get(key, 0)
    # bool is an int in Python, and 8.0 would pass int(); neither is a count in these files.
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise FieldInvalid(f"{where}: {key} must be a whole number, not {_shown(value)}")
    return value


def _shown(value: Any) -> str:
    return repr(value)[:40]


def _refuse_constant(name: str) -> Any:
    """Called by `json` for NaN, Infinity and -Infinity only."""
    raise ValueError(f"{name} is not a JSON number")
