"""The default base model's identity on disk, which serving and the registry check against:
its folder name, the marker file preparation writes, its source's checksum, and sha256 of a
file. Preparing the model is offline tooling (`inference.offline.default_model`)."""

from __future__ import annotations

import hashlib
from pathlib import Path

GGUF_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"
MODEL_DIRNAME = "smollm2-135m-instruct"
MARKER = "macaron-model.json"


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
