"""Where the engine's files live on disk: one root, overridable, so tests and CI stay isolated."""

from __future__ import annotations

import os
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]


def data_home() -> Path:
    """The folder for models, adapters and runtime state (`MACARON_HOME`, default `var/`)."""
    return Path(os.environ.get("MACARON_HOME", REPO_ROOT / "var")).resolve()


def model_cache() -> Path:
    return data_home() / "models"


def adapter_home() -> Path:
    return data_home() / "adapters"
