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


@dataclass(frozen=True)
class FusedAdapter:
    """One slot's adapter on one layer as two matrices: every slice's A side by side, (in,
    slices*rank), and their B block-diagonal, (slices*rank, out). A token then costs two
    matrix products however many slices the layer packs (q, k and v are three)."""

    source: tuple[torch.Tensor, ...]  # vLLM's stacked tensors it was built from
    versions: tuple[int, ...]  # their in-place write counters when it was built
    a: torch.Tensor
    b: torch.Tensor


class FusedAdapters:
    """Fused copies of the adapters in vLLM's slots, rebuilt when vLLM writes a slot.

    vLLM loads an adapter by copying it into preallocated stacked tensors in place, and torch
    counts in-place writes per tensor (`_version`, shared by views), so a changed counter is a
    changed adapter. The copies cost the slices' A once more and their B times the number of
    slices, per slot in use."""

    def __init__(self) -> None:
        self._fused: dict[tuple[int, int, torch.dtype], FusedAdapter] = {}

    def get(
        self,
        lora_a: tuple[torch.Tensor, ...],
        lora_b: tuple[torch.Tensor, ...],
        slot: int,
        dtype: torch.dtype,
    ) -> FusedAdapter:
        source = (*lora_a, *lora_b)
        versions = tuple(t._version for t in source)
        key = (id(lora_a[0]), slot, dtype)
        fused = self._fused.get(key)
        if fused is None or fused.source[0] is not source[0] or fused.versions != versions:
            fused = FusedAdapter(
                source=source,
                versions=versions,
                a=torch.cat([a[slot, 0] for a in lora_a]).T.to(dtype).contiguous(),
                b=torch.block_diag(*(b[slot, 0].T for b in lora_b)).to(dtype),
            )
            self._fused[key] = fused
        return fused


def apply_grouped(
    y: torch.Tensor,
    x: torch.Tensor,
    groups: tuple[SlotGroup, ...],
    adapters: FusedAdapters,
    lora_a: tuple[torch.Tensor, ...],
    lora_b: tuple[torch.Tensor, ...],
    scale: float,
) -> None:
    """y[rows] += scale * x[rows] @ A[slot].T @ B[slot].T for each group, all slices at once.

    `lora_a[i]` is (slots, 1, rank, in) and `lora_b[i]` is (slots, 1, out_i, rank): vLLM's
    stacked layout, padded to the engine's maximum rank with zeros, and y's columns are the
    slices' outputs one after another."""
    for group in groups:
        fused = adapters.get(lora_a, lora_b, group.slot, y.dtype)
        if isinstance(group.rows, slice):
            y[group.rows].addmm_(x[group.rows].to(y.dtype) @ fused.a, fused.b, alpha=scale)
        else:
            delta = (x[group.rows].to(y.dtype) @ fused.a) @ fused.b
            y.index_add_(0, group.rows, delta, alpha=scale)
