"""Applying LoRA adapters to a batch by groups of tokens that share an adapter slot.

Pure torch, on vLLM's stacked adapter layout; `inference.serving.cpu_lora` plugs it into vLLM's CPU
platform, and the module doc there says why.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass(frozen=True)
class SlotGroup:
    """The tokens of one step that use one adapter slot, as a slice of the step's rows (or of
    `StepGroups.order`, when the step's rows had to be reordered)."""

    slot: int
    rows: slice


@dataclass(frozen=True)
class StepGroups:
    """One step's tokens grouped by adapter slot, tokens without an adapter (slot -1) left out.

    When every slot's tokens are already contiguous (one request, or a prefill of several),
    `order` is None and the groups slice the step's rows. Otherwise (decoding requests on
    different adapters interleave) `order` lists the rows with an adapter sorted by slot, and
    the groups slice that order: each layer then gathers its input rows once and adds its
    output back once, rather than once per group."""

    order: torch.Tensor | None
    groups: tuple[SlotGroup, ...]


NO_ADAPTERS = StepGroups(None, ())


def slot_groups(token_slots: torch.Tensor) -> StepGroups:
    """Groups token positions by adapter slot; slot -1 (no adapter) is left out."""
    slots = token_slots.tolist()
    runs = [(slot, rows) for slot, rows in _runs(slots) if slot >= 0]
    if not runs:
        return NO_ADAPTERS
    if len({slot for slot, _ in runs}) == len(runs):  # each slot's rows are contiguous
        return StepGroups(None, tuple(SlotGroup(slot, rows) for slot, rows in runs))
    order = sorted((i for i, slot in enumerate(slots) if slot >= 0), key=slots.__getitem__)
    ordered = [slots[i] for i in order]
    groups = tuple(SlotGroup(slot, rows) for slot, rows in _runs(ordered))
    return StepGroups(torch.tensor(order, device=token_slots.device), groups)


def _runs(slots: list[int]) -> list[tuple[int, slice]]:
    """The maximal runs of one slot, in order: [0, 0, 3] gives (0, 0:2), (3, 2:3)."""
    runs: list[tuple[int, slice]] = []
    start = 0
    for i in range(1, len(slots) + 1):
        if i == len(slots) or slots[i] != slots[start]:
            runs.append((slots[start], slice(start, i)))
            start = i
    return runs


# A decode step's adapter products run in float32 whatever the model's dtype: on a CPU, torch's
# bfloat16 products of a few rows by the rank are slower than float32 ones, while a prefill's
# hundreds of rows are faster in bfloat16 (the two crossed between 16 and 32 rows here). So up
# to `FLOAT32_MAX_ROWS` tokens a step the products are float32 and only their sum is rounded to
# the model's dtype (`bench/lora_path.py --dtype bfloat16`, bench/RESULTS.md).
LORA_DTYPE = torch.float32
FLOAT32_MAX_ROWS = 16


@dataclass(frozen=True)
class FusedAdapter:
    """One slot's adapter on one layer as two matrices: every slice's A side by side, (in,
    slices*rank), and their B block-diagonal, (slices*rank, out). A token then costs two
    matrix products however many slices the layer packs (q, k and v are three)."""

    # vLLM's stacked tensors it was built from, held so their storage (the cache's key) is
    # not reused while the entry lives.
    source: tuple[torch.Tensor, ...]
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
        # By storage, not object: a compiled graph may hand the op other views of one buffer.
        key = (lora_a[0].data_ptr(), slot, dtype)
        fused = self._fused.get(key)
        if fused is None or fused.versions != versions:
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
    step: StepGroups,
    adapters: FusedAdapters,
    lora_a: tuple[torch.Tensor, ...],
    lora_b: tuple[torch.Tensor, ...],
    scale: float,
) -> None:
    """y[rows] += scale * x[rows] @ A[slot].T @ B[slot].T for each group, all slices at once.

    `lora_a[i]` is (slots, 1, rank, in) and `lora_b[i]` is (slots, 1, out_i, rank): vLLM's
    stacked layout, padded to the engine's maximum rank with zeros, and y's columns are the
    slices' outputs one after another."""
    compute = LORA_DTYPE if len(x) <= FLOAT32_MAX_ROWS else y.dtype
    if step.order is None:
        for group in step.groups:
            fused = adapters.get(lora_a, lora_b, group.slot, compute)
            rows = group.rows
            if y.dtype == compute:
                y[rows].addmm_(x[rows].to(compute) @ fused.a, fused.b, alpha=scale)
            else:
                delta = (x[rows].to(compute) @ fused.a) @ fused.b
                y[rows].add_(delta.to(y.dtype), alpha=scale)
        return
    gathered = x.index_select(0, step.order).to(compute)
    delta = torch.empty(len(step.order), y.shape[1], dtype=compute, device=y.device)
    for group in step.groups:
        fused = adapters.get(lora_a, lora_b, group.slot, compute)
        torch.mm(gathered[group.rows] @ fused.a, fused.b, out=delta[group.rows])
    y.index_add_(0, step.order, delta.to(y.dtype), alpha=scale)
