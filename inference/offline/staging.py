"""Writes a folder in full or not at all: the one way models, adapters and datasets land on disk."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def staged_folder(target: Path) -> Iterator[Path]:
    """Yield an empty sibling of `target`; when the block succeeds it replaces `target` in one
    rename, so a crash or an error never leaves a half-written folder where readers look."""
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}-", dir=target.parent))
    staging.chmod(0o755)  # mkdtemp's 0700 would make the finished folder private
    try:
        yield staging
        if target.exists():
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
