"""Proof at engine start that the model's LoRA layers run our CPU wrapper (serving/cpu_lora.py).

The wrapper reaches vLLM through a general plugin that patches the CPU platform; a vLLM
upgrade that picks its wrapper another way, or `VLLM_PLUGINS` leaving ours out, would fall
back to vLLM's own wrapper without a word. So the engine asks the process that runs the model
which wrapper class each of its LoRA layers holds (the object every forward calls), through a
vLLM worker extension, and refuses to start on anything else. vLLM takes one extension class,
so the same probe also reports the torch threads that process runs the model on (the engine
checks them against `MACARON_ENGINE_THREADS`).
"""

from __future__ import annotations

import os
from typing import Any

import vllm

from inference.serving.cpu_lora import WRAPPER

PLUGIN = "macaron_cpu_lora"  # its name under `vllm.general_plugins` in pyproject.toml
# vLLM's own CPU wrapper: what a benchmark's "vLLM as it comes" reference must be shown to run.
STOCK_WRAPPER = "vllm.lora.punica_wrapper.punica_cpu.PunicaWrapperCPU"


class LoraPathError(RuntimeError):
    """The engine's LoRA layers do not run our CPU wrapper."""


class LoraPathProbe:
    """A vLLM worker extension (`worker_extension_cls`): vLLM adds it to the worker's bases, in
    the process that runs the model, and `collective_rpc` calls its methods by name."""

    model_runner: Any  # the worker's

    def macaron_lora_wrappers(self) -> list[str]:
        """The class of the punica wrapper each LoRA layer of the model holds, once each."""
        from vllm.lora.layers import BaseLayerWithLoRA

        model = self.model_runner.get_model()
        wrappers = {
            _qualname(type(module.punica_wrapper))
            for module in model.modules()
            if isinstance(module, BaseLayerWithLoRA)
        }
        return sorted(wrappers)

    def macaron_torch_threads(self) -> int:
        """The intra-op threads torch runs the model's ops on, in that process."""
        import torch

        return int(torch.get_num_threads())


PROBE = f"{LoraPathProbe.__module__}.{LoraPathProbe.__qualname__}"


def _qualname(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


async def verify_lora_path(llm: Any, wanted: str = WRAPPER) -> None:
    """Raises `LoraPathError` unless every LoRA layer on every worker holds `wanted` (ours,
    except in a benchmark's stock reference); `llm` is an `AsyncLLM` started with
    `worker_extension_cls=PROBE`."""
    per_worker: list[list[str]] = await llm.collective_rpc("macaron_lora_wrappers")
    found = sorted({name for names in per_worker for name in names})
    if found != [wanted]:
        raise LoraPathError(lora_path_message(found, wanted))


async def engine_core_threads(llm: Any) -> list[int]:
    """Torch's intra-op threads in each process that runs the model."""
    return list(await llm.collective_rpc("macaron_torch_threads"))


def lora_path_message(found: list[str], wanted: str) -> str:

    in_use = ", ".join(found) if found else "no LoRA layers at all"
    allowed = os.environ.get("VLLM_PLUGINS")
    plugins = "unset" if allowed is None else repr(allowed)
    return (
        f"the CPU LoRA plugin is not in use: the model's LoRA layers run {in_use}, not "
        f"{wanted} (vLLM {vllm.__version__}). Our plugin is the vLLM general plugin "
        f"'{PLUGIN}' (entry point in pyproject.toml); VLLM_PLUGINS is {plugins} and must "
        f"name it if set, and the package must be installed for its entry point to exist. "
        f"If both hold, this vLLM no longer takes the CPU wrapper from "
        f"`current_platform.get_punica_wrapper()`, and inference/serving/cpu_lora.py must "
        f"follow it. "
        f"vLLM's own wrapper is slower and gives base-model tokens the last slot's adapter, "
        f"so the engine does not start without ours."
    )
