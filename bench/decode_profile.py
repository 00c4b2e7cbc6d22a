"""Where a decoded token's time goes: the base model against the memory-bandwidth ceiling, and
what an expert's adapter and the UI4A grammar add to it (issue 17, "a profile that shows where
the rest goes").

    .venv/bin/python -m bench.decode_profile [--tokens 64] [--runs 3] [--json FILE]

Our engine (`VllmEngine`, as the worker runs it) is started with vLLM's torch profiler on its
engine core and vLLM's phase scopes switched on (`VLLM_CUSTOM_SCOPES_FOR_PROFILING`). Each case
(the base model; the ui expert; the ui expert under the UI4A grammar, as the studio decodes)
decodes `--tokens` tokens from one prompt, `--runs` times unprofiled for the wall time a token
takes, then once profiled. From the trace it takes every decode step (each model step after
the prefill, to the start of the next) and splits a step's time into:
- weights: the linear layers' own products, the part the bandwidth ceiling bounds;
- adapters: our LoRA path (its "macaron: lora" scope);
- other model ops: attention, norms, activations, rotary, residual adds;
- logits and sampling: vLLM's postprocess and sample phases (the lm head, the grammar's mask
  applied to the logits, the sampler);
- step bookkeeping: vLLM's preprocess and bookkeeping phases;
- between steps: the engine core outside the model runner (scheduling, the grammar's matcher
  and bitmask, sending the output to the front end).
Profiling adds its own cost per op, so the shares are of the profiled step, and the unprofiled
wall time per token is printed beside them with the ceiling: the weights' bytes at the engine's
dtype over a measured copy bandwidth (`bench.engine.memory_bandwidth_gbs`).
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import math
import os
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.engine import memory_bandwidth_gbs
from bench.engine_timing import PROMPT, spread
from inference.protocol import GenerationRequest, Message
from inference.settings import EngineSettings

# vLLM's scopes for one model step (vllm/v1/worker/gpu_model_runner.py, which the CPU runner
# extends), and ours around the adapters (inference/serving/cpu_lora.py).
STEP_START = "gpu_model_runner: preprocess"
FORWARD = "gpu_model_runner: forward"
LORA = "macaron: lora"
PHASES = {
    "gpu_model_runner: preprocess": "step bookkeeping",
    "gpu_model_runner: bookkeep": "step bookkeeping",
    "gpu_model_runner: postprocess": "logits and sampling",
    "gpu_model_runner: sample": "logits and sampling",
}
# The ops a linear layer's product shows as in a CPU trace: torch's, and vLLM's oneDNN and
# CPU GEMM kernels.
WEIGHT_OPS = ("aten::linear", "aten::addmm", "aten::mm", "aten::matmul", "onednn_mm", "gemm")
SHARES = (
    "weights",
    "adapters",
    "other model ops",
    "logits and sampling",
    "step bookkeeping",
    "between steps",
)
CASES = ("base", "ui expert", "ui expert + grammar")


@dataclass(frozen=True)
class Event:
    name: str
    tid: str  # a thread's number, or a name the profiler gives its own rows
    start: float  # microseconds
    end: float

    def holds(self, other: Event) -> bool:
        return self.tid == other.tid and self.start <= other.start and other.end <= self.end


def trace_events(trace: dict[str, Any]) -> list[Event]:
    """The complete ("X") events of a chrome trace, by start time."""
    out = [
        Event(str(e["name"]), str(e.get("tid", "")), float(e["ts"]), float(e["ts"] + e["dur"]))
        for e in trace.get("traceEvents", [])
        if e.get("ph") == "X" and "dur" in e
    ]
    return sorted(out, key=lambda e: (e.start, -e.end))


def top_level(events: list[Event], parent: Event) -> list[Event]:
    """The events directly inside `parent`: in it, and not inside an earlier one that is."""
    out: list[Event] = []
    for event in events:
        if event is parent or not parent.holds(event):
            continue
        if out and out[-1].holds(event):
            continue
        out.append(event)
    return out


def step_shares(events: list[Event]) -> list[dict[str, float]]:
    """Milliseconds of each share, per decode step: every step after the first (the prefill)
    that has a next step to end it."""
    starts = [e for e in events if e.name == STEP_START]
    forwards = [e for e in events if e.name == FORWARD]
    steps = []
    for begin, end in itertools.pairwise(starts[1:]):
        window = Event("step", begin.tid, begin.start, end.start)
        shares = dict.fromkeys(SHARES, 0.0)
        inside = top_level(events, window)
        for event in inside:
            if event.name in PHASES:
                shares[PHASES[event.name]] += event.end - event.start
        for forward in (f for f in forwards if window.holds(f)):
            for op in top_level(events, forward):
                took = op.end - op.start
                if op.name == LORA:
                    shares["adapters"] += took
                elif any(name in op.name for name in WEIGHT_OPS):
                    shares["weights"] += took
                else:
                    shares["other model ops"] += took
            # the forward's own Python between its ops
            shares["other model ops"] += (forward.end - forward.start) - sum(
                op.end - op.start for op in top_level(events, forward)
            )
        counted = sum(shares.values())
        shares["between steps"] = (window.end - window.start) - counted
        steps.append({k: v / 1000 for k, v in shares.items()})
    return steps


def read_trace(folder: Path, prefix: str) -> dict[str, Any]:
    found = sorted(folder.glob(f"{prefix}_*.pt.trace.json*"))
    if not found:
        raise SystemExit(f"no trace for {prefix} in {folder}: did the profiler start?")
    raw = found[-1].read_bytes()
    trace: dict[str, Any] = json.loads(gzip.decompress(raw) if found[-1].suffix == ".gz" else raw)
    return trace


def bytes_at(model_dir: Path, dtype: str) -> int:
    """The weights' bytes as the engine holds them: every tensor's elements, from the
    safetensors headers, at `dtype` (the files may be stored in another)."""
    import torch
    from safetensors import safe_open

    elements = 0
    for path in model_dir.glob("*.safetensors"):
        with safe_open(path, framework="pt") as weights:
            for name in weights.keys():  # noqa: SIM118 (a safetensors handle, not iterable)
                elements += math.prod(weights.get_slice(name).get_shape())
    if not elements:
        raise SystemExit(f"no *.safetensors in {model_dir}: set MACARON_MODEL to a local folder")
    return int(elements * getattr(torch, dtype).itemsize)


def case_request(case: str, tokens: int) -> GenerationRequest:
    from inference.serving.prompts import request_for

    if case == "base":
        return GenerationRequest(
            request_id=str(uuid.uuid4()),
            expert=None,
            messages=(Message("user", PROMPT),),
            max_tokens=tokens,
            ignore_eos=True,
        )
    request = request_for(
        request_id=str(uuid.uuid4()),
        expert="ui",
        prompt="a sales dashboard with revenue KPIs, a monthly revenue chart and a customers table",
        max_tokens=tokens,
    )
    if case == "ui expert":
        return replace(request, json_schema=None, ignore_eos=True)
    return request


def wall_ms_per_token(engine: Any, case: str, tokens: int) -> float:
    engine.reset_prefix_cache()
    times: list[float] = []
    for delta in engine.stream(case_request(case, tokens)):
        times += [time.perf_counter()] * (delta.tokens - len(times))
    if len(times) < 8:
        raise SystemExit(f"{case}: only {len(times)} tokens came back")
    return (times[-1] - times[0]) * 1000 / (len(times) - 1)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.decode_profile", description=__doc__)
    parser.add_argument("--tokens", type=int, default=64)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, default=Path("bench/results/decode_profile.json"))
    args = parser.parse_args()

    from inference.serving.engine import VllmEngine

    settings = EngineSettings.from_env()
    bandwidth = statistics.median(memory_bandwidth_gbs() for _ in range(args.runs))
    weight_bytes = bytes_at(Path(settings.model), settings.cpu_dtype)
    ceiling_ms = weight_bytes / (bandwidth * 1e9) * 1000
    os.environ["VLLM_CUSTOM_SCOPES_FOR_PROFILING"] = "1"  # the engine core inherits it
    results: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as folder:
        engine = VllmEngine(settings, profile_dir=Path(folder))
        try:
            for case in CASES:
                list(engine.stream(case_request(case, 8)))  # warm: adapter, grammar compiled
                walls = [wall_ms_per_token(engine, case, args.tokens) for _ in range(args.runs)]
                prefix = case.replace(" ", "-").replace("+", "and")
                with engine.profiled(prefix):
                    profiled = wall_ms_per_token(engine, case, args.tokens)
                steps = step_shares(trace_events(read_trace(Path(folder), prefix)))
                shares = {s: round(statistics.median(x[s] for x in steps), 3) for s in SHARES}
                results[case] = {
                    "wall_ms_per_token": spread(walls),
                    "profiled_ms_per_token": round(profiled, 3),
                    "profiled_steps": len(steps),
                    "step_ms_median": round(statistics.median(sum(x.values()) for x in steps), 3),
                    "shares_ms": shares,
                }
        finally:
            engine.shutdown()
    record = {
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "tokens": args.tokens,
        "runs": args.runs,
        "dtype": settings.cpu_dtype,
        "bandwidth_gbs": round(bandwidth, 2),
        "weight_bytes": weight_bytes,
        "ceiling_ms_per_token": round(ceiling_ms, 3),
        "cases": results,
    }
    print_table(record)
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(record, indent=1) + "\n")


def print_table(record: dict[str, Any]) -> None:
    cases = record["cases"]
    print(
        f"decode, ms per token ({record['dtype']}, {record['tokens']} tokens, "
        f"{record['runs']} runs): ceiling {record['ceiling_ms_per_token']} ms "
        f"({record['weight_bytes'] / 1e6:.0f} MB at {record['bandwidth_gbs']} GB/s)"
    )
    print(f"  {'':<38}" + "".join(f"{c:>22}" for c in cases))
    walls = [cases[c]["wall_ms_per_token"] for c in cases]
    row(
        "wall, unprofiled (median, min-max)",
        [f"{w['median']} ({w['min']}-{w['max']})" for w in walls],
    )
    base = cases["base"]["wall_ms_per_token"]["median"]
    row("ceiling / base wall", [f"{record['ceiling_ms_per_token'] / base:.2f}"])
    row("profiled step (median)", [str(cases[c]["step_ms_median"]) for c in cases])
    for share in SHARES:
        cells = []
        for c in cases:
            ms = cases[c]["shares_ms"][share]
            cells.append(f"{ms} ({100 * ms / cases[c]['step_ms_median']:.0f}%)")
        row("  " + share, cells)


def row(label: str, cells: list[str]) -> None:
    print(f"  {label:<38}" + "".join(f"{cell:>22}" for cell in cells))


if __name__ == "__main__":
    main()
