"""A CPU engine's KV cache in memory the kernel zeroes a page at a time, as it is first written
(`MACARON_KV_ON_TOUCH`, on unless 0).

vLLM allocates the KV cache with `torch.zeros`, which writes every byte of it at start: 1 GiB
on a CPU host (`VLLM_CPU_KVCACHE_SPACE`), each page faulted in and zeroed before the engine can
serve. On a virtual machine whose memory the host backs lazily, that alone took 4.3 s of the
engine core's start (bench/RESULTS.md, "Worker start-up"). Anonymous pages from `mmap` already
read as zero, and are only backed as the cache fills: a request's blocks pay for their pages
when written, a few microseconds a token.

`install` is a vLLM general plugin (pyproject.toml), loaded in every process vLLM starts before
the engine core runs; on a CPU platform it gives vLLM's KV cache allocator (its own function,
unchanged) a `torch` whose `zeros` maps fresh pages for a CPU buffer. Other calls are torch's.
"""

from __future__ import annotations

import mmap
import os
import types
from typing import Any

import torch

SETTING = "MACARON_KV_ON_TOUCH"


def zeroed_on_touch(size: int) -> torch.Tensor:
    """`size` bytes of zeros (int8), from anonymous pages the kernel zeroes when first
    touched. The tensor holds the mapping; it is unmapped when the tensor is freed."""
    pages = mmap.mmap(-1, size, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    return torch.frombuffer(pages, dtype=torch.int8)


class _TorchZeroingOnTouch(types.ModuleType):
    """`torch`, but for `zeros` of a flat int8 CPU buffer: the allocator's one call."""

    def __getattr__(self, name: str) -> Any:
        return getattr(torch, name)

    @staticmethod
    def zeros(*size: Any, dtype: Any = None, device: Any = None, **kwargs: Any) -> torch.Tensor:
        flat = len(size) == 1 and isinstance(size[0], int) and size[0] > 0 and not kwargs
        if flat and dtype == torch.int8 and torch.device(device or "cpu").type == "cpu":
            return zeroed_on_touch(size[0])
        return torch.zeros(*size, dtype=dtype, device=device, **kwargs)


def on_touch(allocate: types.FunctionType) -> types.FunctionType:
    """`allocate` (vLLM's `allocate_kv_cache`), reading `torch` as `_TorchZeroingOnTouch`."""
    names = dict(allocate.__globals__, torch=_TorchZeroingOnTouch("torch"))
    rebuilt = types.FunctionType(
        allocate.__code__, names, allocate.__name__, allocate.__defaults__, allocate.__closure__
    )
    rebuilt.__kwdefaults__ = allocate.__kwdefaults__
    rebuilt.__doc__ = allocate.__doc__
    rebuilt.__wrapped__ = allocate  # type: ignore[attr-defined]
    return rebuilt


def install() -> None:
    """vLLM general plugin: the CPU model runner's KV cache allocated on touch; once a process
    (a forked engine core inherits its parent's)."""
    from vllm.platforms import current_platform

    if not current_platform.is_cpu() or os.environ.get(SETTING, "1") == "0":
        return
    from vllm.v1.worker import gpu_model_runner  # the CPU runner's base, whose name it calls

    if not hasattr(gpu_model_runner.allocate_kv_cache, "__wrapped__"):
        gpu_model_runner.allocate_kv_cache = on_touch(gpu_model_runner.allocate_kv_cache)
