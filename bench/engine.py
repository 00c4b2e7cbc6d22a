"""Engine benchmark: vLLM as our engine host runs it, against vLLM as it comes and against Hugging
Face transformers (+ peft), side by side in one run, with the machine's memory-bandwidth ceiling
measured in the same run.

"vLLM as it comes" is the same engine without what inference/ changes on a CPU host: vLLM's own
LoRA path (not inference/serving/cpu_lora.py) and its model in a worker process of its own.

    .venv/bin/python bench/engine.py [--tokens 128] [--json bench/results/engine.json]

Prints one table; every figure is a median over `--repeat` runs and shown as a ratio to its
reference measured in the same run (this machine is noisy).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inference.experts import EXPERTS
from inference.offline.peft_reference import chat_inputs, with_experts
from inference.protocol import GenerationRequest, Message
from inference.settings import EngineSettings

PROMPT = "Describe, in detail, how a web browser renders a page, step by step."

# vLLM's own CPU configuration: every general plugin but ours, the model in a worker process.
VLLM_AS_IT_COMES = {
    "VLLM_PLUGINS": "lora_filesystem_resolver,lora_hf_hub_resolver",
    "VLLM_ENABLE_V1_MULTIPROCESSING": "1",
}


@contextmanager
def environment(values: dict[str, str]) -> Iterator[None]:
    """Sets variables for an engine built inside: its processes inherit them when they start."""
    saved = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def median_of(runs: int, measure: Callable[[], float]) -> float:
    return float(statistics.median(measure() for _ in range(runs)))


def device() -> str:
    """Where the transformers reference and the bandwidth probe run: the GPU if there is one,
    so a GPU profile run compares like with like."""
    import torch

    return "cuda" if torch.cuda.is_available() else "cpu"


def memory_bandwidth_gbs() -> float:
    """Bytes streamed per second by a large fp32 mat-vec (what decoding one token does)."""
    import torch

    rate = _matvec_rate(device())
    if torch.cuda.is_available():
        torch.cuda.empty_cache()  # give the probe's memory back before vLLM sizes its cache
    return rate


def _matvec_rate(on: str) -> float:
    import torch

    size = 8192 if on == "cpu" else 32768  # 256 MiB (CPU) or 4 GiB (GPU), beyond the caches
    weights = torch.randn(size, size, device=on)
    vector = torch.randn(size, device=on)
    weights @ vector

    def once() -> float:
        if on == "cuda":
            torch.cuda.synchronize()
        start = time.perf_counter()
        for _ in range(10):
            weights @ vector
        if on == "cuda":
            torch.cuda.synchronize()
        return float(10 * weights.numel() * 4 / (time.perf_counter() - start) / 1e9)

    return median_of(5, once)


def model_bytes(model_dir: Path) -> int:
    """Weights read per generated token by a dense model; for a mixture-of-experts model only
    the active experts are read, so the ceiling printed from this is a lower bound there."""
    size = sum(p.stat().st_size for p in model_dir.glob("*.safetensors"))
    if not size:
        raise SystemExit(f"no *.safetensors in {model_dir}: set MACARON_MODEL to a local folder")
    return size


def vllm_rates(
    tokens: int, repeat: int, env: dict[str, str] | None = None, *, stock: bool = False
) -> dict[str, float]:
    """`stock`: the engine must prove it runs vLLM's own LoRA wrapper, not ours."""
    from inference.serving.cpu_lora import WRAPPER
    from inference.serving.engine import VllmEngine
    from inference.serving.lora_path_check import STOCK_WRAPPER

    with environment(env or {}):
        engine = VllmEngine(
            EngineSettings.from_env(), lora_wrapper=STOCK_WRAPPER if stock else WRAPPER
        )
    try:

        def request(expert: str | None) -> GenerationRequest:
            return GenerationRequest(
                request_id=str(uuid.uuid4()),
                expert=expert,
                messages=(Message("user", PROMPT),),
                max_tokens=tokens,
                ignore_eos=True,
            )

        def single(expert: str | None) -> float:
            first = None
            count = 0
            for delta in engine.stream(request(expert)):
                first = first or time.perf_counter()
                count = delta.tokens
            assert first is not None
            return (count - 1) / (time.perf_counter() - first)

        single(None)  # warm-up: compile paths, load adapters
        rates = {"base": median_of(repeat, lambda: single(None))}
        for name in sorted(EXPERTS):
            single(name)
            rates[name] = median_of(repeat, lambda name=name: single(name))  # type: ignore[misc]

        def aggregate() -> float:
            experts = [sorted(EXPERTS)[i % len(EXPERTS)] for i in range(8)]
            totals: list[int] = []
            threads = [
                threading.Thread(
                    target=lambda e=e: totals.append(
                        [d.tokens for d in engine.stream(request(e))][-1]
                    )
                )
                for e in experts
            ]
            start = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            return sum(totals) / (time.perf_counter() - start)

        rates["8 concurrent, 4 experts"] = median_of(max(1, repeat // 2), aggregate)
        return rates
    finally:
        engine.shutdown()


def transformers_rates(tokens: int, repeat: int) -> dict[str, float]:
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    torch.manual_seed(0)
    settings = EngineSettings.from_env()
    inputs = chat_inputs(AutoTokenizer.from_pretrained(settings.model), PROMPT, device())

    def generate(model: Any) -> float:
        start = time.perf_counter()
        with torch.inference_mode():
            model.generate(**inputs, max_new_tokens=tokens, min_new_tokens=tokens, do_sample=False)
        return tokens / (time.perf_counter() - start)

    # fp32 on the CPU, as our engine runs there; the checkpoint's own dtype on a GPU.
    dtype = torch.float32 if device() == "cpu" else "auto"
    base = AutoModelForCausalLM.from_pretrained(settings.model, torch_dtype=dtype).to(device())
    generate(base)
    rates = {"base": median_of(repeat, lambda: generate(base))}
    peft_model = with_experts(base, settings.adapter_root)
    for name in sorted(EXPERTS):
        peft_model.set_adapter(name)
        generate(peft_model)
        rates[name] = median_of(repeat, lambda: generate(peft_model))

    def one_after_another() -> float:
        start = time.perf_counter()
        for i in range(8):
            peft_model.set_adapter(sorted(EXPERTS)[i % len(EXPERTS)])
            generate(peft_model)
        return 8 * tokens / (time.perf_counter() - start)

    rates["8 concurrent, 4 experts"] = one_after_another()
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", type=Path, default=Path("bench/results/engine.json"))
    parser.add_argument(
        "--skip-vllm-as-it-comes",
        action="store_true",
        help="leave out the engine without our CPU changes (saves a third of the run)",
    )
    args = parser.parse_args()

    settings = EngineSettings.from_env()
    bandwidth = memory_bandwidth_gbs()
    per_token = model_bytes(Path(settings.model))
    ceiling = bandwidth * 1e9 / per_token
    ours = vllm_rates(args.tokens, args.repeat)
    as_it_comes = (
        {}
        if args.skip_vllm_as_it_comes
        else vllm_rates(args.tokens, args.repeat, VLLM_AS_IT_COMES, stock=True)
    )
    reference = transformers_rates(args.tokens, args.repeat)

    rows = []
    for name in ours:
        stock = as_it_comes.get(name)
        rows.append(
            {
                "what": name,
                "vllm_tok_s": round(ours[name], 2),
                "vllm_as_it_comes_tok_s": round(stock, 2) if stock else None,
                "transformers_tok_s": round(reference[name], 2),
                "ratio_vs_transformers": round(ours[name] / reference[name], 2),
                "ratio_vs_our_base": round(ours[name] / ours["base"], 2),
                "ratio_vs_vllm_as_it_comes": round(ours[name] / stock, 2) if stock else None,
            }
        )
    print(f"memory bandwidth {bandwidth:.1f} GB/s; {per_token / 1e9:.2f} GB read per token;")
    print(f"single-stream ceiling {ceiling:.1f} tok/s; our base at {ours['base'] / ceiling:.0%}")
    header = (
        f"{'what':<26}{'ours tok/s':>11}{'vLLM stock':>11}{'HF tok/s':>10}"
        f"{'vs HF':>7}{'vs base':>8}{'vs stock':>9}"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        print(
            f"{row['what']:<26}{row['vllm_tok_s']:>11}{row['vllm_as_it_comes_tok_s'] or '-':>11}"
            f"{row['transformers_tok_s']:>10}{row['ratio_vs_transformers']:>7}"
            f"{row['ratio_vs_our_base']:>8}{row['ratio_vs_vllm_as_it_comes'] or '-':>9}"
        )
    print("ours: inference/ as deployed; vLLM stock: vLLM's own CPU LoRA path and worker process")
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(
        json.dumps(
            {
                "tokens": args.tokens,
                "repeat": args.repeat,
                "memory_bandwidth_gbs": round(bandwidth, 2),
                "bytes_per_token": per_token,
                "ceiling_tok_s": round(ceiling, 2),
                "rows": rows,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
