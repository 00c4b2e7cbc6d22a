"""The decode profile's reading of a trace: each decode step's time (from one model step's
start to the next) split into the linear layers' products, the adapters, other model ops,
vLLM's phases and the engine core's time between steps; the prefill step is left out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import torch
from safetensors.torch import save_file

from bench.decode_profile import SHARES, bytes_at, step_shares, top_level, trace_events


def x(name: str, start_ms: float, end_ms: float, tid: int | str = 1) -> dict[str, Any]:
    return {
        "ph": "X",
        "name": name,
        "tid": tid,
        "ts": start_ms * 1000,
        "dur": (end_ms - start_ms) * 1000,
    }


def step(at: float) -> list[dict[str, Any]]:
    """One model step starting `at` ms, 10 ms long, then 2 ms in the engine core's loop."""
    return [
        x("gpu_model_runner: preprocess", at, at + 0.5),
        x("gpu_model_runner: forward", at + 0.5, at + 7.5),
        x("aten::linear", at + 1, at + 4),  # 3 ms of weights
        x("aten::addmm", at + 1.5, at + 3.5),  # inside the linear: not counted again
        x("macaron: lora", at + 4, at + 5),  # 1 ms of adapters
        x("aten::mm", at + 4.2, at + 4.8),  # the adapter's product: the adapters' share
        x("vllm::unified_attention", at + 5, at + 6.5),  # 1.5 ms, plus 1.5 ms of Python
        x("gpu_model_runner: postprocess", at + 7.5, at + 8.5),
        x("gpu_model_runner: sample", at + 8.5, at + 9.5),
        x("gpu_model_runner: bookkeep", at + 9.5, at + 10),
        x("aten::copy_", at + 11, at + 11.5, tid=2),  # another thread: not a step's share
    ]


def test_each_decode_step_is_split_and_the_prefill_and_last_step_are_left_out() -> None:
    trace = {"traceEvents": [e for at in (0, 12, 24, 36) for e in step(at)]}

    steps = step_shares(trace_events(trace))

    assert len(steps) == 2  # the steps at 12 and 24: 0 is the prefill, 36 has no next start
    for shares in steps:
        assert set(shares) == set(SHARES)
        assert shares["weights"] == pytest.approx(3.0)
        assert shares["adapters"] == pytest.approx(1.0)
        assert shares["other model ops"] == pytest.approx(3.0)  # attention and the gaps
        assert shares["logits and sampling"] == pytest.approx(2.0)
        assert shares["step bookkeeping"] == pytest.approx(1.0)
        assert shares["between steps"] == pytest.approx(2.0)
        assert sum(shares.values()) == pytest.approx(12.0)


def test_top_level_takes_the_events_directly_inside_a_parent_on_its_thread() -> None:
    events = trace_events({"traceEvents": step(0)})
    forward = next(e for e in events if e.name == "gpu_model_runner: forward")

    names = [e.name for e in top_level(events, forward)]

    assert names == ["aten::linear", "macaron: lora", "vllm::unified_attention"]


def test_the_ceilings_bytes_are_the_weights_at_the_engines_dtype_not_the_files(
    tmp_path: Path,
) -> None:
    save_file({"a": torch.zeros(2, 5), "b": torch.zeros(6)}, str(tmp_path / "model.safetensors"))

    assert bytes_at(tmp_path, "float32") == 16 * 4
    assert bytes_at(tmp_path, "bfloat16") == 16 * 2
