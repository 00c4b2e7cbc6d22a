"""vLLM's LoRA tensors for one forward outside an engine: stacked adapters shaped as vLLM
allocates them for a model, and a CPU punica wrapper set up for one step's token slots.

`bench/lora_path.py` times vLLM's wrapper against ours on them, and
tests/inference/test_lora_equality.py checks that the two compute the same thing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

# One LoRA'd linear layer: each slice's A, (slots, 1, rank, in), each slice's B, (slots, 1,
# out_i, rank), and the slices' output sizes (q, k and v are three slices of one output).
Layer = tuple[tuple[torch.Tensor, ...], tuple[torch.Tensor, ...], tuple[int, ...]]

FIRST_LORA_ID = 10  # vLLM's ids for adapters start at 1; apart from slot numbers on purpose


@dataclass(frozen=True)
class ModelShape:
    """The sizes that shape a decoder's LoRA'd layers."""

    hidden: int
    inner: int  # the MLP's
    kv: int  # k's and v's output each
    decoder_layers: int

    @classmethod
    def of(cls, model_dir: str | Path) -> ModelShape:
        config = json.loads((Path(model_dir) / "config.json").read_text())
        hidden = config["hidden_size"]
        return cls(
            hidden=hidden,
            inner=config["intermediate_size"],
            kv=hidden * config["num_key_value_heads"] // config["num_attention_heads"],
            decoder_layers=config["num_hidden_layers"],
        )


def stacked_layers(
    shape: ModelShape,
    *,
    rank: int,
    slots: int,
    decoder_layers: int | None = None,
    generator: torch.Generator | None = None,
) -> list[Layer]:
    """Random adapters in every slot of every LoRA'd layer (q/k/v packed, o, gate/up packed,
    down) of `decoder_layers` decoder layers (all the model's by default)."""
    per_decoder = [
        ((shape.hidden, shape.kv, shape.kv), shape.hidden),
        ((shape.hidden,), shape.hidden),
        ((shape.inner, shape.inner), shape.hidden),
        ((shape.hidden,), shape.inner),
    ]
    layers = []
    for _ in range(shape.decoder_layers if decoder_layers is None else decoder_layers):
        for slices, width in per_decoder:
            a = tuple(torch.randn(slots, 1, rank, width, generator=generator) for _ in slices)
            b = tuple(
                torch.randn(slots, 1, size, rank, generator=generator) * 0.01 for size in slices
            )
            layers.append((a, b, slices))
    return layers


def step_wrapper(wrapper_class: type[Any], token_slots: torch.Tensor, *, prefill: bool) -> Any:
    """A vLLM CPU punica wrapper of `wrapper_class` (vLLM's `PunicaWrapperCPU` or a subclass)
    after vLLM's own `update_metadata` for one step whose token i uses adapter slot
    `token_slots[i]` (-1: none), as the LoRA model manager calls it before a forward."""
    tokens = max(len(token_slots), 1)
    wrapper = wrapper_class(tokens, max_batches=tokens, device=torch.device("cpu"))
    next_step(wrapper, token_slots, prefill=prefill)
    return wrapper


def next_step(wrapper: Any, token_slots: torch.Tensor, *, prefill: bool) -> None:
    """vLLM's metadata update on `wrapper` for a step of at most its capacity in tokens."""
    from vllm.lora.layers.utils import LoRAMapping

    slots = int(token_slots.max().item()) + 1 if len(token_slots) else 1
    ids = tuple(FIRST_LORA_ID + slot if slot >= 0 else 0 for slot in token_slots.tolist())
    wrapper.update_metadata(
        LoRAMapping(index_mapping=ids, prompt_mapping=ids, is_prefill=prefill),
        lora_index_to_id=[FIRST_LORA_ID + slot for slot in range(slots)],
        max_loras=slots,
        vocab_size=1,  # shapes only embedding offsets, which linear layers never read
    )
