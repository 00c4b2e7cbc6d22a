"""Adapter weights pinned to the hash the registry took: a load copies the adapter's config
and weights into a private folder of the worker's, hashing the weights as it copies, and
refuses a copy whose hash differs from the one registered. vLLM then reads the copy, so what
it loads is exactly what was hashed, whoever can write the adapter's own folder afterwards.
The copy costs one read and one write of the weights per load, never per request.

An adapter's draft corpus, if it has one, is copied too: it is not hashed, because it cannot
change what the model writes, only how many steps it takes (inference/serving/corpus_drafts.py
reads it within its budgets)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from inference.loras import CONFIG, WEIGHTS, AdapterRef
from inference.serving.corpus_drafts import CORPUS_FILE, MAX_CORPUS_BYTES


class AdapterWeightsChanged(RuntimeError):
    """The weights on disk are not the ones registered under this adapter id."""


def pinned_copy(ref: AdapterRef, into: Path) -> str:
    """Copy `ref`'s config and weights into the new folder `into` (private to this user) and
    return the weights' sha256. When `ref` names a hash and the weights differ, the copy is
    removed and `AdapterWeightsChanged` raised. A ref without a hash (a built-in served from
    its folder without the registry) is copied and hashed all the same, so the hash reported
    for a resident adapter is always that of the bytes loaded."""
    source = Path(ref.path)
    into.mkdir(mode=0o700)
    try:
        shutil.copyfile(source / CONFIG, into / CONFIG)
        corpus = source / CORPUS_FILE
        if corpus.is_file() and corpus.stat().st_size <= MAX_CORPUS_BYTES:
            shutil.copyfile(corpus, into / CORPUS_FILE)
        digest = hashlib.sha256()
        with (source / WEIGHTS).open("rb") as read, (into / WEIGHTS).open("wb") as write:
            for block in iter(lambda: read.read(1 << 20), b""):
                digest.update(block)
                write.write(block)
        actual = digest.hexdigest()
        if ref.sha256 and actual != ref.sha256:
            raise AdapterWeightsChanged(
                f"refusing to load the adapter {ref.name!r}: its weights at {source / WEIGHTS} "
                f"have sha256 {actual[:12]}, but {ref.sha256[:12]} was registered. "
                "Register the adapter again if the change is intended."
            )
    except BaseException:
        shutil.rmtree(into, ignore_errors=True)
        raise
    return actual
