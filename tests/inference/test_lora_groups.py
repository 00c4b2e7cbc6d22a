"""The grouped LoRA path: the same result as applying each token's adapter by hand."""

from __future__ import annotations

import pytest
import torch

from inference.serving.lora_groups import (
    FLOAT32_MAX_ROWS,
    NO_ADAPTERS,
    FusedAdapters,
    SlotGroup,
    StepGroups,
    apply_grouped,
    slot_groups,
)

SLOTS, RANK, HIDDEN = 4, 16, 32
SLICES = (24, 8, 8)  # a packed q/k/v projection: three slices of one output


def stacked(seed: int) -> tuple[tuple[torch.Tensor, ...], tuple[torch.Tensor, ...]]:
    generator = torch.Generator().manual_seed(seed)
    a = tuple(torch.randn(SLOTS, 1, RANK, HIDDEN, generator=generator) for _ in SLICES)
    b = tuple(torch.randn(SLOTS, 1, size, RANK, generator=generator) for size in SLICES)
    return a, b


def activations(rows: int, columns: int, seed: int) -> torch.Tensor:
    return torch.randn(rows, columns, generator=torch.Generator().manual_seed(seed))


def assert_same_sums(actual: torch.Tensor, expected: torch.Tensor) -> None:
    """The grouped path sums the same float32 products in another order: outputs reach tens,
    so rounding differs by about 1e-5 in absolute terms, wherever a sum nears zero too."""
    torch.testing.assert_close(actual, expected, rtol=1e-5, atol=1e-4)


def by_hand(
    y: torch.Tensor,
    x: torch.Tensor,
    token_slots: list[int],
    a: tuple[torch.Tensor, ...],
    b: tuple[torch.Tensor, ...],
    scale: float,
) -> torch.Tensor:
    out = y.clone()
    for token, slot in enumerate(token_slots):
        if slot < 0:
            continue  # no adapter: the base model's output, untouched
        offset = 0
        for a_i, b_i, size in zip(a, b, SLICES, strict=True):
            delta = x[token] @ a_i[slot, 0].T @ b_i[slot, 0].T
            out[token, offset : offset + size] += scale * delta
            offset += size
    return out


@pytest.mark.parametrize(
    "token_slots",
    [
        [2],  # one decoding request
        [1] * 7,  # a prefill of one request
        [-1] * 5,  # the base model only
        [0, 0, 3, 3, 3],  # two requests, contiguous
        [0, 3, 0, -1, 3, 2, -1, 0],  # eight decoding requests over three adapters and the base
        [-1, -1, 3, 3],  # base and the last slot: vLLM's own path confuses the two
    ],
)
def test_it_applies_each_tokens_adapter_and_leaves_base_tokens_alone(
    token_slots: list[int],
) -> None:
    a, b = stacked(seed=len(token_slots))
    x = activations(len(token_slots), HIDDEN, seed=10)
    y = activations(len(token_slots), sum(SLICES), seed=11)
    expected = by_hand(y, x, token_slots, a, b, scale=0.5)

    groups = slot_groups(torch.tensor(token_slots))
    apply_grouped(y, x, groups, FusedAdapters(), a, b, scale=0.5)

    assert_same_sums(y, expected)


@pytest.mark.parametrize(
    ("token_slots", "products_in"),
    [
        ([2, 2, 2], torch.float32),  # a decode step: float32 products
        ([0, 3, 0, -1, 3], torch.float32),  # interleaved requests
        ([1] * (FLOAT32_MAX_ROWS + 1), torch.bfloat16),  # a prefill: the model's dtype
    ],
)
def test_a_bfloat16_model_gets_its_adapters_applied_in_the_dtype_that_is_faster(
    token_slots: list[int], products_in: torch.dtype
) -> None:
    """A bfloat16 engine (MACARON_CPU_DTYPE) hands bfloat16 activations: a decode step's
    products run in float32 and only their sum is rounded; a prefill's run in bfloat16. Either
    way the result is the float32 one, rounded."""
    a, b = stacked(seed=3)
    x = activations(len(token_slots), HIDDEN, seed=12).bfloat16()
    y = activations(len(token_slots), sum(SLICES), seed=13).bfloat16()
    adapters = FusedAdapters()
    expected = by_hand(y.float(), x.float(), token_slots, a, b, scale=0.5)

    apply_grouped(y, x, slot_groups(torch.tensor(token_slots)), adapters, a, b, scale=0.5)

    assert y.dtype == torch.bfloat16
    torch.testing.assert_close(y.float(), expected, rtol=3e-2, atol=1.0)
    assert {key[2] for key in adapters._fused} == {products_in}


def test_a_slot_written_in_place_is_applied_with_its_new_weights() -> None:
    """vLLM loads an adapter by copying it into its stacked tensors in place."""
    a, b = stacked(seed=1)
    adapters = FusedAdapters()
    x = activations(2, HIDDEN, seed=14)
    groups = slot_groups(torch.tensor([1, 1]))
    apply_grouped(torch.zeros(2, sum(SLICES)), x, groups, adapters, a, b, scale=1.0)

    a_new, b_new = stacked(seed=2)
    for old, new in zip((*a, *b), (*a_new, *b_new), strict=True):
        old[1].copy_(new[1])  # as LoRALayer.set_lora writes one slot
    y = torch.zeros(2, sum(SLICES))
    apply_grouped(y, x, groups, adapters, a, b, scale=1.0)

    assert_same_sums(y, by_hand(torch.zeros(2, sum(SLICES)), x, [1, 1], a_new, b_new, 1.0))


def test_it_groups_tokens_by_slot_as_slices_where_it_can() -> None:
    assert slot_groups(torch.tensor([], dtype=torch.long)) == NO_ADAPTERS
    assert slot_groups(torch.tensor([-1, -1])) == NO_ADAPTERS
    assert slot_groups(torch.tensor([2, 2, 2])) == StepGroups(None, (SlotGroup(2, slice(0, 3)),))
    # A prefill of two requests and a base one: contiguous, so no reordering.
    step = slot_groups(torch.tensor([3, 3, -1, 0, 0, -1]))
    assert step == StepGroups(None, (SlotGroup(3, slice(0, 2)), SlotGroup(0, slice(3, 5))))


def test_interleaved_slots_are_reordered_once_and_sliced() -> None:
    step = slot_groups(torch.tensor([1, 1, -1, 0, 1]))
    assert step.order is not None
    assert step.order.tolist() == [3, 0, 1, 4]  # slot 0's row, then slot 1's, base left out
    assert step.groups == (SlotGroup(0, slice(0, 1)), SlotGroup(1, slice(1, 4)))
