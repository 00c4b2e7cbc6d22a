"""The prompt-lookup drafter's numba functions are kept compiled on disk
(inference/serving/ngram_jit_cache.py): a second process loads what the first compiled."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

PROPOSE = """
import numpy as np
from vllm.v1.spec_decode import ngram_proposer
from inference.serving import ngram_jit_cache
ngram_jit_cache.enable()
tokens = np.tile(np.arange(40, dtype=np.int32), (2, 100))
drafts = np.zeros((2, 4), dtype=np.int32)
ngram_proposer.batch_propose_numba(
    [0, 1], np.array([50, 60], dtype=np.int32), tokens, 2, 4, 4000, 4, drafts, np.zeros(2, np.int32)
)
print(drafts.tolist())
"""


def propose(home: Path, **env: str) -> str:
    run = subprocess.run(
        [sys.executable, "-c", PROPOSE],
        env={**os.environ, "MACARON_HOME": str(home), "NUMBA_NUM_THREADS": "1", **env},
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return run.stdout.strip()


def test_a_second_process_loads_the_drafters_compiled_functions(tmp_path: Path) -> None:
    first = propose(tmp_path)
    cached = sorted(p.suffix for p in (tmp_path / "numba-cache").rglob("*.nb*"))
    assert ".nbi" in cached and ".nbc" in cached, "nothing kept"
    second = propose(tmp_path)
    # Each output ends with the tokens ..., 8, 9 (or 18, 19), first seen 40 tokens before.
    assert first == second == "[[10, 11, 12, 13], [20, 21, 22, 23]]"


def test_the_setting_turns_it_off(tmp_path: Path) -> None:
    assert propose(tmp_path, MACARON_NGRAM_JIT_CACHE="0") == "[[10, 11, 12, 13], [20, 21, 22, 23]]"
    assert not (tmp_path / "numba-cache").exists()
