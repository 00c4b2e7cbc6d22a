"""Malformed adapter files are refused at registration with a message naming the field, never
a server error later: wrong types in the peft config or the manifest, NaN, oversized files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from inference.experts import adapter_dir
from inference.loras import AdapterInvalid, inspect_adapter, served_base
from inference.settings import EngineSettings


def adapter(tmp_path: Path, *, config: dict[str, Any] | None = None, manifest: str = "") -> Path:
    """A copy of the chat expert's adapter, its config updated and its manifest's text
    replaced when given."""
    folder = tmp_path / "poet"
    shutil.copytree(adapter_dir("chat"), folder)
    data = json.loads((folder / "adapter_config.json").read_text())
    data.update(config or {})
    (folder / "adapter_config.json").write_text(json.dumps(data))
    if manifest:
        (folder / "macaron-manifest.json").write_text(manifest)
    return folder


def inspect(folder: Path) -> Any:
    settings = EngineSettings.from_env()
    return inspect_adapter(folder, served_base(settings.model, settings.max_lora_rank))


def manifest_with(**changes: Any) -> str:
    data = json.loads((adapter_dir("chat") / "macaron-manifest.json").read_text())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("config", "manifest", "message"),
    [
        ({}, manifest_with(rank="eight"), "rank must be a whole number, not 'eight'"),
        ({}, manifest_with(rank=[8]), r"rank must be a whole number, not \[8\]"),
        ({"r": "8"}, "", "r must be a whole number, not '8'"),
        ({"r": 8.5}, "", "r must be a whole number, not 8.5"),
        ({"r": True}, "", "r must be a whole number, not True"),
        ({"target_modules": [1, {"a": 2}]}, "", "target_modules must be a list of module names"),
        ({}, manifest_with(structured="false"), "structured must be true or false"),
        ({}, manifest_with(purpose=["x"]), "purpose must be text"),
        ({}, manifest_with(system_prompt={"x": 1}), "system_prompt must be text"),
        ({}, manifest_with(base_sha256=None), "base_sha256 must be text"),
        ({}, manifest_with(metrics=[1]), "metrics must be an object"),
        ({}, manifest_with(dataset_examples=-1), "dataset_examples must be a whole number"),
        ({}, manifest_with(metrics={"eval_loss": float("nan")}), "NaN is not a JSON number"),
        ({}, "[1, 2]", "is not a JSON object"),
        ({}, "{not json", "is not valid JSON"),
    ],
)
def test_a_malformed_field_is_refused_by_name(
    tmp_path: Path, config: dict[str, Any], manifest: str, message: str
) -> None:
    with pytest.raises(AdapterInvalid, match=message):
        inspect(adapter(tmp_path, config=config, manifest=manifest))


def test_an_oversized_manifest_is_refused(tmp_path: Path) -> None:
    with pytest.raises(AdapterInvalid, match="larger than"):
        inspect(adapter(tmp_path, manifest=manifest_with(history="x" * (1 << 20))))


def test_a_well_formed_adapter_still_passes(tmp_path: Path) -> None:
    assert inspect(adapter(tmp_path)).rank == 8
