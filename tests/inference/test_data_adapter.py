"""Which adapter the ui expert answers with in a project with datasets: its data adapter where
one is installed and the expert serves its own folder, else whatever it serves."""

from __future__ import annotations

import hashlib
from pathlib import Path

from inference.loras import WEIGHTS, AdapterRef, adapter_over_datasets, local_ref


def _folder(root: Path, name: str, weights: bytes) -> Path:
    (root / name).mkdir(parents=True)
    (root / name / WEIGHTS).write_bytes(weights)
    return root / name


def test_the_ui_expert_answers_over_datasets_with_its_data_adapter(tmp_path: Path) -> None:
    _folder(tmp_path, "ui", b"screens")
    data = _folder(tmp_path, "ui-data", b"queries")
    ref = adapter_over_datasets("ui", None, tmp_path)
    assert ref is not None and ref.path == str(data)
    assert ref.sha256 == hashlib.sha256(b"queries").hexdigest()  # a stale resident copy is refused
    assert ref.lora_id != local_ref("ui", tmp_path).lora_id
    registered = AdapterRef("ui", 7, str(tmp_path / "ui"), "abc")  # the built-in, as recorded
    assert adapter_over_datasets("ui", registered, tmp_path) == ref


def test_without_a_data_adapter_or_for_a_version_from_elsewhere_the_served_one_answers(
    tmp_path: Path,
) -> None:
    _folder(tmp_path, "ui", b"screens")
    assert adapter_over_datasets("ui", None, tmp_path) is None  # none installed
    _folder(tmp_path, "ui-data", b"queries")
    elsewhere = AdapterRef("ui", 9, str(tmp_path / "retrained"), "def")
    assert adapter_over_datasets("ui", elsewhere, tmp_path) == elsewhere
    assert adapter_over_datasets("chat", None, tmp_path) is None  # no data adapter for chat
