"""A CPU engine's KV cache comes from pages the kernel zeroes as they are first written
(inference/serving/kv_cache_on_touch.py), not from `torch.zeros`, which wrote all of it at
start; and the collector is frozen while the worker forks its engine core."""

from __future__ import annotations

import gc

import pytest
import torch
from vllm.v1.worker import gpu_model_runner

from inference.serving import kv_cache_on_touch
from inference.serving.engine import _engine_core_started_by

MIB = 2**20


def resident_mib() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096 // MIB


def test_the_buffer_reads_zero_and_is_only_backed_where_written() -> None:
    before = resident_mib()
    buffer = kv_cache_on_touch.zeroed_on_touch(512 * MIB)
    assert buffer.dtype == torch.int8 and buffer.numel() == 512 * MIB
    assert resident_mib() - before < 64
    buffer[:MIB] = 7
    assert int(buffer[:MIB].sum()) == 7 * MIB
    assert int(buffer[-MIB:].abs().sum()) == 0
    assert resident_mib() - before < 64  # 2 MiB touched of 512


def test_vllms_cpu_runner_allocates_through_the_patched_allocator() -> None:
    """vLLM's general plugins ran as vLLM loaded (conftest or import); its CPU model runner
    calls the allocator by the name the plugin replaced."""
    from vllm.plugins import load_general_plugins

    load_general_plugins()
    allocate = gpu_model_runner.allocate_kv_cache
    assert getattr(allocate, "__wrapped__", None) is not None, "plugin not installed"
    calls = gpu_model_runner.GPUModelRunner.initialize_kv_cache_tensors.__code__.co_names
    assert "allocate_kv_cache" in calls
    patched_torch = allocate.__globals__["torch"]
    before = resident_mib()
    flat = patched_torch.zeros(256 * MIB, dtype=torch.int8, device=torch.device("cpu"))
    assert resident_mib() - before < 32  # torch.zeros would have written all 256 MiB
    assert int(flat[:MIB].sum()) == 0
    # Anything else is torch's own.
    shaped = patched_torch.zeros(2, 3, dtype=torch.float32)
    assert shaped.shape == (2, 3) and patched_torch.float16 is torch.float16


def test_the_setting_turns_it_off(monkeypatch: pytest.MonkeyPatch) -> None:
    original = getattr(gpu_model_runner.allocate_kv_cache, "__wrapped__", None)
    original = original or gpu_model_runner.allocate_kv_cache
    monkeypatch.setattr(gpu_model_runner, "allocate_kv_cache", original)
    monkeypatch.setenv(kv_cache_on_touch.SETTING, "0")
    kv_cache_on_touch.install()
    assert gpu_model_runner.allocate_kv_cache is original
    monkeypatch.setenv(kv_cache_on_touch.SETTING, "1")
    kv_cache_on_touch.install()
    assert gpu_model_runner.allocate_kv_cache.__wrapped__ is original


def test_the_collector_is_frozen_only_while_the_engine_core_is_forked() -> None:
    with _engine_core_started_by(True):
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
    with _engine_core_started_by(False):
        assert gc.get_freeze_count() == 0
