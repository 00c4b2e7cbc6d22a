"""Which base model (issue 12, item 7): the default against the candidate, in one run.

    .venv/bin/python -m bench.base_models [--runs 3] [--tokens 128] [--per-kind 2]
                                          [--out bench/results/base_models]

The candidate is Gemma 3 270M (`inference.offline.candidate_base`), twice the default's size.

1. Decode speed: each model in a fresh process, served by vLLM as it comes (`vllm.LLM`, the
   engine's dtype, greedy, no adapter), answering the ui expert's system prompt and a dev
   prompt: one stream, then 8 at once, `--tokens` each with EOS ignored. Runs alternate the two
   models so the machine's drift falls on both.
2. The dev set: `bench.ui4a_bench --variants base` on each model, the first `--per-kind`
   prompts of each kind, through the real stack and judge. The candidate's stack gets untrained
   adapters made for it (the base variant runs none; the worker warms up with its ui adapter).
   Neither model is trained for UI4A here: this compares where training would start from.

Prints each model's figures and the candidate's ratio to the default, and writes
`base_models.json` (every run's figures) with each dev-set run's folder under `--out`.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.engine_timing import spread

DEFAULT_LICENCE = "Apache-2.0 (HuggingFaceTB/SmolLM2-135M-Instruct)"
STREAMS = (1, 8)
SPEED_PROMPT_ID = "dashboard-01"
DEVSET_FIGURES = (
    "all_requirements_pct",
    "requirements_pct",
    "requirements",
    "scripts",
    "valid_pct",
    "parses_pct",
    "cut_off",
    "median_tokens",
    "median_seconds",
)


def parameters(model_dir: Path) -> int:
    """The parameter count, read from the safetensors header."""
    with (model_dir / "model.safetensors").open("rb") as handle:
        (size,) = struct.unpack("<Q", handle.read(8))
        header = json.loads(handle.read(size))
    total = 0
    for name, entry in header.items():
        if name != "__metadata__":
            total += math.prod(entry["shape"])
    return total


def decode_speed(model_dir: str, tokens: int) -> dict[str, float]:
    """Tokens a second at 1 and 8 streams; runs in its own process (`--speed-child`)."""
    from vllm import LLM, SamplingParams

    from bench.ui4a_bench.devset import load
    from inference.serving.prompts import ui_system_prompt
    from inference.settings import native_dtype

    prompt = next(p.prompt for p in load() if p.id == SPEED_PROMPT_ID)
    chat = [{"role": "system", "content": ui_system_prompt()}, {"role": "user", "content": prompt}]
    llm = LLM(model=model_dir, dtype=native_dtype(), max_model_len=4096, enforce_eager=True)
    params = SamplingParams(max_tokens=tokens, temperature=0, ignore_eos=True)
    llm.chat([chat], params, use_tqdm=False)  # warm-up: the first forward allocates
    result = {}
    for streams in STREAMS:
        started = time.perf_counter()
        outputs = llm.chat([chat] * streams, params, use_tqdm=False)
        elapsed = time.perf_counter() - started
        made = sum(len(o.outputs[0].token_ids) for o in outputs)
        result[str(streams)] = round(made / elapsed, 2)
    return result


def speed_run(model_dir: Path, tokens: int) -> dict[str, float]:
    env = {**os.environ, "VLLM_CPU_KVCACHE_SPACE": os.environ.get("VLLM_CPU_KVCACHE_SPACE", "1")}
    done = subprocess.run(
        [sys.executable, "-m", "bench.base_models", "--speed-child", str(model_dir),
         "--tokens", str(tokens)],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode or not lines:
        raise RuntimeError(f"the speed run on {model_dir} failed:\n{done.stderr[-3000:]}")
    figures: dict[str, float] = json.loads(lines[-1])
    return figures


def devset_run(model_dir: Path, adapters: Path | None, per_kind: int, out: Path) -> dict[str, Any]:
    env = dict(os.environ, MACARON_MODEL=str(model_dir))
    if adapters is not None:
        env["MACARON_ADAPTERS"] = str(adapters)
    command = [sys.executable, "-m", "bench.ui4a_bench", "--variants", "base",
               "--per-kind", str(per_kind), "--out", str(out)]  # fmt: skip
    subprocess.run(command, env=env, check=True)
    summary = json.loads((out / "summary.json").read_text())["variants"]["base"]
    return {key: summary[key] for key in DEVSET_FIGURES}


def ratios(candidate: list[float], default: list[float]) -> list[float]:
    """Run by run: the candidate's figure over the default's from the same round."""
    return [round(c / d, 3) for c, d in zip(candidate, default, strict=True)]


def table(report: dict[str, Any]) -> str:
    models = report["models"]
    names = list(models)
    rows = [("", *names, "candidate / default")]
    rows.append(("parameters (M)", *(f"{models[n]['parameters'] / 1e6:.0f}" for n in names), ""))
    for streams in STREAMS:
        key = str(streams)
        cells = [
            "{min} / {median} / {max}".format(**spread(models[n]["speed"][key])) for n in names
        ]
        ratio = spread(report["speed_ratios"][key])
        rows.append(
            (f"tok/s, {streams} stream(s)", *cells, "{min} / {median} / {max}".format(**ratio))
        )
    for figure in DEVSET_FIGURES:
        if all(models[n].get("devset") for n in names):
            rows.append(
                (f"dev set: {figure}", *(str(models[n]["devset"][figure]) for n in names), "")
            )
    widths = [max(len(str(row[i])) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    lines.append("")
    lines += [f"{n}: {models[n]['licence']}" for n in names]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--per-kind", type=int, default=2, help="dev prompts per kind; 0: none")
    parser.add_argument("--out", type=Path, default=Path("bench/results/base_models"))
    parser.add_argument("--speed-child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.speed_child:
        print(json.dumps(decode_speed(args.speed_child, args.tokens)))
        return
    if args.runs < 1 or args.tokens < 1 or args.per_kind < 0:
        parser.error("--runs and --tokens must be >= 1, --per-kind >= 0")

    from inference.offline import candidate_base
    from inference.offline.adapter_install import install_adapters
    from inference.offline.default_model import prepare_default_model
    from inference.paths import data_home, model_cache

    default = prepare_default_model(model_cache())
    candidate = candidate_base.prepare_candidate(model_cache())
    adapters = data_home() / f"adapters-{candidate.name}"
    install_adapters(
        candidate, adapters, base_sha256=candidate_base.GGUF_SHA256, log=lambda _: None
    )
    dirs = {default.name: default, candidate.name: candidate}
    models: dict[str, dict[str, Any]] = {
        default.name: {"licence": DEFAULT_LICENCE},
        candidate.name: {"licence": candidate_base.LICENCE, "source": candidate_base.SOURCE},
    }
    for name, folder in dirs.items():
        models[name].update(parameters=parameters(folder), speed={str(s): [] for s in STREAMS})
    for run in range(args.runs):
        for name, folder in dirs.items():
            figures = speed_run(folder, args.tokens)
            print(f"run {run + 1}: {name}: {figures}", flush=True)
            for streams, value in figures.items():
                models[name]["speed"][streams].append(value)
    if args.per_kind:
        for name, folder in dirs.items():
            own = adapters if folder == candidate else None
            models[name]["devset"] = devset_run(folder, own, args.per_kind, args.out / name)
    report = {
        "config": {"runs": args.runs, "tokens": args.tokens, "per_kind": args.per_kind},
        "models": models,
        "speed_ratios": {
            str(s): ratios(
                models[candidate.name]["speed"][str(s)], models[default.name]["speed"][str(s)]
            )
            for s in STREAMS
        },
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "base_models.json").write_text(json.dumps(report, indent=2) + "\n")
    print(table(report))


if __name__ == "__main__":
    main()
