"""Engine benchmark: our engine (vLLM as inference/ runs it) against the transformers + peft
references, with the machine's memory-bandwidth ceiling, every figure over `--runs` runs
(min / median / max) and every ratio taken within one run.

    .venv/bin/python bench/engine.py [--tokens 128] [--runs 3] [--json bench/results/engine.json]
        [--run-dir bench/results/engine-runs] [--with-vllm-as-it-comes]

Fair by construction (bench/engine_timing.py):
- one timing window on every side: from submission (chat template and tokenizer included) to the
  last token, prefill included. That end-to-end rate is the headline; the decode-only rate
  (first token to last) is shown beside it and is the one held against the bandwidth ceiling;
- the transformers references run in a process of their own (bench/engine_reference.py), started
  before any engine exists here;
- batched against batched: our 8 mixed streams against one peft batch mixing the same adapters
  (`adapter_names`); single stream against single stream, with peft and with the adapter merged;
- our prefix cache is cleared before each measurement, and the 8 streams' prompts all differ,
  so no side skips a prefill the other pays.

Writes one small JSON per run into `--run-dir` and one summary JSON (`--json`, read by
bench/summary.py); prints one table of same-run ratios.

"vLLM as it comes" (`--with-vllm-as-it-comes`) is the same engine without what inference/
changes on a CPU host: vLLM's own LoRA path (not inference/serving/cpu_lora.py), its own choice
of layers to wrap (the head too: `MACARON_LORA_HEAD=1`) and its model in a worker process of its
own.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.engine_timing import (
    MIXED,
    MIXED_EXPERTS,
    MIXED_PROMPTS,
    PROMPT,
    SIDES,
    Window,
    merge,
    spread,
)
from inference.experts import EXPERTS
from inference.protocol import GenerationRequest, Message
from inference.settings import EngineSettings

# vLLM's own CPU configuration: every general plugin but ours, the model in a worker process.
VLLM_AS_IT_COMES = {
    "VLLM_PLUGINS": "lora_filesystem_resolver,lora_hf_hub_resolver",
    "VLLM_ENABLE_V1_MULTIPROCESSING": "1",
    "MACARON_LORA_HEAD": "1",  # vLLM's own choice of layers to wrap, the head among them
}
WINDOWS = ("end_to_end", "decode")
HEADLINE = "end_to_end"


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
    values = sorted(measure() for _ in range(runs))
    return values[len(values) // 2]


def device() -> str:
    """Where the bandwidth probe runs: the GPU if there is one."""
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


def timed_stream(
    engine: Any, expert: str | None, prompt: str, tokens: int
) -> tuple[Window, list[float]]:
    """One request through `engine.stream()`, the path the worker serves: its window, and
    when each of its tokens arrived (one delta may carry several)."""
    request = GenerationRequest(
        request_id=str(uuid.uuid4()),
        expert=expert,
        messages=(Message("user", prompt),),
        max_tokens=tokens,
        ignore_eos=True,
    )
    times: list[float] = []
    submitted = time.perf_counter()
    for delta in engine.stream(request):
        now = time.perf_counter()
        times += [now] * (delta.tokens - len(times))
    assert len(times) == tokens, (len(times), tokens)
    return merge([Window(submitted, times[0], times[-1], tokens, tokens - 1)], [times]), times


def one_stream(engine: Any, expert: str | None, tokens: int) -> Window:
    return timed_stream(engine, expert, PROMPT, tokens)[0]


def concurrent_streams(engine: Any, tokens: int) -> Window:
    """The 8 mixed streams, submitted together, timed as one window."""
    done: list[tuple[Window, list[float]] | None] = [None] * len(MIXED_PROMPTS)
    start = threading.Barrier(len(MIXED_PROMPTS))

    def one(index: int) -> None:
        start.wait()
        done[index] = timed_stream(engine, MIXED_EXPERTS[index], MIXED_PROMPTS[index], tokens)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(MIXED_PROMPTS))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    streams = [d for d in done if d is not None]
    assert len(streams) == len(MIXED_PROMPTS), "a stream failed; see its thread's traceback"
    return merge([w for w, _ in streams], [times for _, times in streams])


def engine_runs(
    side: str, tokens: int, runs: int, env: dict[str, str] | None = None
) -> list[dict[str, dict[str, float]]]:
    """`runs` passes over base, each expert and the 8 mixed streams, on one engine."""
    from inference.serving.cpu_lora import WRAPPER
    from inference.serving.engine import VllmEngine
    from inference.serving.lora_path_check import STOCK_WRAPPER

    stock = side == "vllm_as_it_comes"
    with environment(env or {}):
        engine = VllmEngine(
            EngineSettings.from_env(), lora_wrapper=STOCK_WRAPPER if stock else WRAPPER
        )
    try:

        def fresh(measure: Callable[[], Window]) -> dict[str, float]:
            engine.reset_prefix_cache()  # every measurement pays its prefill
            return measure().rates()

        # Warm-up: compile paths, make every adapter resident; not timed.
        for expert in (None, *sorted(EXPERTS)):
            one_stream(engine, expert, 4)
        concurrent_streams(engine, 4)
        results = []
        for index in range(runs):
            figures = {f"{side}/base": fresh(lambda: one_stream(engine, None, tokens))}
            for name in sorted(EXPERTS):
                figures[f"{side}/{name}"] = fresh(
                    lambda name=name: one_stream(engine, name, tokens)  # type: ignore[misc]
                )
            figures[f"{side}/{MIXED}"] = fresh(lambda: concurrent_streams(engine, tokens))
            results.append(figures)
            print(f"{side} run {index + 1} of {runs} done", file=sys.stderr, flush=True)
        return results
    finally:
        engine.shutdown()


def reference_runs(tokens: int, runs: int) -> tuple[list[dict[str, dict[str, float]]], int]:
    """bench/engine_reference.py in a process of its own; its runs and its torch threads."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "reference.json"
        subprocess.run(
            [
                sys.executable,
                str(Path(__file__).with_name("engine_reference.py")),
                f"--tokens={tokens}",
                f"--runs={runs}",
                f"--json={out}",
            ],
            check=True,
        )
        data = json.loads(out.read_text())
    return data["runs"], data["torch_threads"]


# (what, ours, reference, target): each a ratio taken within one run.
def comparisons(with_stock: bool) -> list[tuple[str, str, str, float | None]]:
    rows: list[tuple[str, str, str, float | None]] = [
        (MIXED, f"ours/{MIXED}", f"peft_batched/{MIXED}", 1.0)
    ]
    for name in sorted(EXPERTS):
        rows.append((name, f"ours/{name}", f"transformers/{name}", 1.0))
    for name in sorted(EXPERTS):
        rows.append((name, f"ours/{name}", f"merged/{name}", None))
    rows.append(("base", "ours/base", "transformers/base", None))
    rows.append(("base", "ours/base", "ceiling", 0.8))
    if with_stock:
        for what in ("base", *sorted(EXPERTS), MIXED):
            rows.append((what, f"ours/{what}", f"vllm_as_it_comes/{what}", None))
    return rows


def run_ratios(
    figures: dict[str, dict[str, float]], ceiling: float, with_stock: bool
) -> list[dict[str, Any]]:
    out = []
    for what, ours, reference, target in comparisons(with_stock):
        ratio = {}
        for window in WINDOWS:
            mine = figures[ours][f"{window}_tok_s"]
            theirs = ceiling if reference == "ceiling" else figures[reference][f"{window}_tok_s"]
            ratio[window] = round(mine / theirs, 3)
        out.append({"what": what, "ours": ours, "reference": reference, "target": target, **ratio})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, default=Path("bench/results/engine.json"))
    parser.add_argument("--run-dir", type=Path, default=Path("bench/results/engine-runs"))
    parser.add_argument(
        "--with-vllm-as-it-comes",
        action="store_true",
        help="also time the engine without our CPU changes (adds about half the run)",
    )
    args = parser.parse_args()

    settings = EngineSettings.from_env()
    per_token = model_bytes(Path(settings.model))
    started = datetime.now(UTC).isoformat(timespec="seconds")
    # Before any engine or reference model exists: nothing else of ours is in memory.
    bandwidths = [memory_bandwidth_gbs() for _ in range(args.runs)]
    reference, torch_threads = reference_runs(args.tokens, args.runs)
    ours = engine_runs("ours", args.tokens, args.runs)
    stock = (
        engine_runs("vllm_as_it_comes", args.tokens, args.runs, VLLM_AS_IT_COMES)
        if args.with_vllm_as_it_comes
        else [{} for _ in range(args.runs)]
    )

    args.run_dir.mkdir(parents=True, exist_ok=True)
    per_run = []
    run_files = []
    for index in range(args.runs):
        ceiling = bandwidths[index] * 1e9 / per_token
        figures = {**reference[index], **ours[index], **stock[index]}
        record = {
            "run": index + 1,
            "started": started,
            "tokens": args.tokens,
            "torch_threads": torch_threads,
            # What our engine ran with (compiled or not, its threads...): the settings set.
            "settings": engine_settings_set(),
            "memory_bandwidth_gbs": round(bandwidths[index], 2),
            "bytes_per_token": per_token,
            "ceiling_tok_s": round(ceiling, 2),
            "headline_window": HEADLINE,
            "figures": figures,
            "ratios": run_ratios(figures, ceiling, args.with_vllm_as_it_comes),
        }
        path = args.run_dir / f"engine-run-{index + 1}.json"
        path.write_text(json.dumps(record, indent=2) + "\n")
        per_run.append(record)
        run_files.append(str(path))

    summary = summarise(per_run, run_files)
    print_table(summary)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(summary, indent=2) + "\n")


def engine_settings_set() -> dict[str, str]:
    """The MACARON_ settings in this environment, secrets left out."""
    return {
        name: value
        for name, value in sorted(os.environ.items())
        if name.startswith("MACARON_") and not any(w in name for w in ("SECRET", "KEY", "PASSWORD"))
    }


def summarise(per_run: list[dict[str, Any]], run_files: list[str]) -> dict[str, Any]:
    """Every figure and ratio as min / median / max over the runs; a target is met when the
    median run's ratio reaches it (the min is there to see how often it would not)."""
    keys = per_run[0]["figures"].keys()
    figures = {
        key: {
            window: spread([run["figures"][key][f"{window}_tok_s"] for run in per_run])
            for window in WINDOWS
        }
        for key in keys
    }
    ratios = []
    for position, first in enumerate(per_run[0]["ratios"]):
        row = {k: first[k] for k in ("what", "ours", "reference", "target")}
        for window in WINDOWS:
            row[window] = spread([run["ratios"][position][window] for run in per_run])
        # The ceiling bounds decode only, so that ratio is judged on the decode window.
        judged = "decode" if first["reference"] == "ceiling" else HEADLINE
        row["judged_on"] = judged
        row["met"] = None if first["target"] is None else row[judged]["median"] >= first["target"]
        ratios.append(row)
    return {
        "tokens": per_run[0]["tokens"],
        "runs": len(per_run),
        "headline_window": HEADLINE,
        "run_files": run_files,
        "sides": {
            side: SIDES[side] for side in SIDES if any(k.startswith(f"{side}/") for k in keys)
        },
        "memory_bandwidth_gbs": spread([run["memory_bandwidth_gbs"] for run in per_run]),
        "ceiling_tok_s": spread([run["ceiling_tok_s"] for run in per_run]),
        "figures": figures,
        "ratios": ratios,
    }


def print_table(summary: dict[str, Any]) -> None:
    ceiling = summary["ceiling_tok_s"]
    print(
        f"memory bandwidth {summary['memory_bandwidth_gbs']['median']:.1f} GB/s; single-stream "
        f"ceiling {ceiling['median']:.1f} tok/s (min {ceiling['min']}, max {ceiling['max']})"
    )
    print(f"{summary['runs']} runs of {summary['tokens']} tokens per stream; ratios within a run")
    print()
    tok = f"{'tok/s e2e, median':>18}"
    print(f"{'side/what':<34}{tok}{'decode':>9}")
    for key, windows in summary["figures"].items():
        print(f"{key:<34}{windows['end_to_end']['median']:>18}{windows['decode']['median']:>9}")
    print()
    header = (
        f"{'ours / reference':<20}{'reference':<16}{'end-to-end min/med/max':>24}"
        f"{'decode med':>11}{'target':>8}  met"
    )
    print(header)
    print("-" * len(header))
    for row in summary["ratios"]:
        e2e = row["end_to_end"]
        span = f"{e2e['min']:.2f} / {e2e['median']:.2f} / {e2e['max']:.2f}"
        target = "-" if row["target"] is None else f">={row['target']}"
        met = "" if row["met"] is None else ("yes" if row["met"] else "NO")
        if row["judged_on"] == "decode":
            met += " (decode)"
        print(
            f"{row['what']:<20}{row['reference'].split('/')[0]:<16}{span:>24}"
            f"{row['decode']['median']:>11.2f}{target:>8}  {met}"
        )
    print("end-to-end: submit to last token, prefill included (headline); decode: first to last")
    for side, meaning in summary["sides"].items():
        print(f"  {side}: {meaning}")


if __name__ == "__main__":
    main()
