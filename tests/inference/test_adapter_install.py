"""Committed trained adapters reach the serving root; local work is never overwritten."""

from __future__ import annotations

import json
from pathlib import Path

from inference.experts import EXPERTS, MANIFEST
from inference.offline.adapter_install import (
    COMMITTED_MARKER,
    WEIGHTS,
    committed_adapter,
    install_adapters,
)
from inference.serving.corpus_drafts import CORPUS_FILE

BASE = "b" * 64


def _adapter(folder: Path, *, trained: bool, weights: bytes, base: str = BASE) -> Path:
    folder.mkdir(parents=True)
    (folder / MANIFEST).write_text(json.dumps({"trained": trained, "base_sha256": base}))
    (folder / WEIGHTS).write_bytes(weights)
    (folder / "adapter_config.json").write_text("{}")
    return folder


def _committed(root: Path, weights: bytes = b"trained-v1") -> Path:
    for name in EXPERTS:
        _adapter(root / name, trained=True, weights=weights)
    return root


def _install(committed: Path, served: Path) -> list[Path]:
    return install_adapters(
        Path("unused"), served, base_sha256=BASE, committed_root=committed, log=lambda _: None
    )


def test_committed_adapters_replace_untrained_ones_and_install_once(tmp_path: Path) -> None:
    committed = _committed(tmp_path / "committed")
    served = tmp_path / "served"
    _adapter(served / "ui", trained=False, weights=b"zeros")

    assert len(_install(committed, served)) == len(EXPERTS)
    assert (served / "ui" / WEIGHTS).read_bytes() == b"trained-v1"
    assert (served / "ui" / COMMITTED_MARKER).is_file()
    assert _install(committed, served) == []  # idempotent


def test_new_committed_weights_replace_an_old_committed_copy(tmp_path: Path) -> None:
    served = tmp_path / "served"
    _install(_committed(tmp_path / "v1"), served)

    _install(_committed(tmp_path / "v2", weights=b"trained-v2"), served)

    assert (served / "chat" / WEIGHTS).read_bytes() == b"trained-v2"


def test_an_adapter_trained_here_is_kept(tmp_path: Path) -> None:
    served = tmp_path / "served"
    _adapter(served / "coding", trained=True, weights=b"my own run")  # no marker: trained here

    _install(_committed(tmp_path / "committed"), served)

    assert (served / "coding" / WEIGHTS).read_bytes() == b"my own run"


def test_adapters_for_another_base_model_are_not_offered(tmp_path: Path) -> None:
    _adapter(tmp_path / "ui", trained=True, weights=b"w", base="c" * 64)

    assert committed_adapter("ui", BASE, tmp_path) is None


def test_a_committed_data_adapter_is_installed_and_a_missing_one_is_not_made_up(
    tmp_path: Path,
) -> None:
    served = tmp_path / "served"
    _install(_committed(tmp_path / "none"), served)
    assert not (served / "ui-data").exists()  # the ui expert's own adapter serves then

    committed = _committed(tmp_path / "committed")
    _adapter(committed / "ui-data", trained=True, weights=b"queries")
    assert served / "ui-data" in _install(committed, served)
    assert (served / "ui-data" / WEIGHTS).read_bytes() == b"queries"


def test_a_file_committed_later_beside_the_same_weights_reaches_the_copy(tmp_path: Path) -> None:
    committed = _committed(tmp_path / "committed")
    served = tmp_path / "served"
    _install(committed, served)

    (committed / "ui" / CORPUS_FILE).write_text('"{}"\n')

    assert _install(committed, served) == [served / "ui"]
    assert (served / "ui" / CORPUS_FILE).read_text() == '"{}"\n'
    assert _install(committed, served) == []
