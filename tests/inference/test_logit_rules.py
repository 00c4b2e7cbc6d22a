"""The one hook into vLLM's sampling (inference/serving/logit_rules.py): installed by the
plugin, and a fault in a rule leaves the step to vLLM's sampler."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import torch
from vllm.sampling_params import SamplingParams
from vllm.v1.worker.gpu_model_runner import GPUModelRunner

from inference.serving import copy_bias, logit_rules


def test_the_plugin_wraps_vllms_sampling() -> None:
    from vllm.plugins import load_general_plugins

    load_general_plugins()
    assert getattr(GPUModelRunner._sample, "__wrapped__", None) is not None, "not installed"


def test_a_fault_in_a_rule_leaves_the_step_to_vllms_sampler(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A rule that raises is logged, and the step is sampled as it stood: an exception there
    would kill the engine core and end every generation in the batch."""
    sampled = []
    sample = logit_rules.guarded(lambda runner, logits, meta: sampled.append(logits.clone()))
    wanted = {"tokens": [1], "bias": 1.0}
    state = SimpleNamespace(
        sampling_params=SamplingParams(extra_args={copy_bias.EXTRA_ARG: wanted}),
        prompt_token_ids=[],
        output_token_ids=None,  # not a list: counting it raises
    )
    broken = SimpleNamespace(
        input_batch=SimpleNamespace(req_ids=["a"]),
        requests={"a": state},
        model_config=SimpleNamespace(tokenizer="unread"),
    )
    logits = torch.zeros(1, 3)
    sample(broken, logits, None)
    assert len(sampled) == 1 and torch.equal(sampled[0], torch.zeros(1, 3))
    assert "a logit rule failed" in caplog.text
