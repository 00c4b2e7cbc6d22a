"""Applying LoRA adapters to a batch by groups of tokens that share an adapter slot.

Pure torch, on vLLM's stacked adapter layout; `inference.cpu_lora` plugs it into vLLM's CPU
platform, and the module doc there says why.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class SlotGroup:
    """The tokens of one step that use one adapter slot: a slice when they are contiguous."""

    slot: int
    rows: slice | torch.Tensor


def slot_groups(token_slots: torch.Tensor) -> tuple[SlotGroup, ...]:
    """Groups token positions by adapter slot; slot -1 (no adapter) is left out."""
    slots = token_slots.tolist()
    if not slots:
        return ()
    first = slots[0]
    if all(slot == first for slot in slots):  # one request, or one adapter: the common case
        return () if first < 0 else (SlotGroup(first, slice(0, len(slots))),)
    groups = []
    for slot in sorted({s for s in slots if s >= 0}):
        rows = [i for i, s in enumerate(slots) if s == slot]
        if rows[-1] - rows[0] + 1 == len(rows):
            groups.append(SlotGroup(slot, slice(rows[0], rows[-1] + 1)))
        else:
            groups.append(SlotGroup(slot, torch.tensor(rows, device=token_slots.device)))
    return tuple(groups)


def apply_grouped(
    y: torch.Tensor,
    x: torch.Tensor,
    groups: tuple[SlotGroup, ...],
    lora_a: tuple[torch.Tensor, ...],
    lora_b: tuple[torch.Tensor, ...],
    output_slices: tuple[int, ...],
    scale: float,
) -> None:
    """y[rows, slice] += scale * x[rows] @ A[slot].T @ B[slot].T, per group and per slice.

    `lora_a[i]` is (slots, 1, rank, in) and `lora_b[i]` is (slots, 1, out_i, rank): vLLM's
    stacked layout, padded to the engine's maximum rank with zeros."""
    for group in groups:
        rows = x[group.rows]
        offset = 0
        for a, b, size in zip(lora_a, lora_b, output_slices, strict=True):
            shrunk = rows @ a[group.slot, 0].to(x.dtype).T
            expanded_b = b[group.slot, 0].to(y.dtype).T
            target = y[:, offset : offset + size]
            if isinstance(group.rows, slice):
                target[group.rows].addmm_(shrunk.to(y.dtype), expanded_b, alpha=scale)
            else:
                target.index_add_(0, group.rows, shrunk.to(y.dtype) @ expanded_b, alpha=scale)
            offset += size
